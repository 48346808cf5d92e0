// GET/PATCH /v1/settings: the Places settings object (chainMetadata, chainMappings, placeFilters), one
// per project environment. Their inner shape is Waymark's own (api/places/places-settings.ts, docs/places.md).
import { put, type Store } from '../../../ports/store';
import { SETTINGS } from '../../api/collections';
import { BadRequest } from '../../http/errors';
import { readDictionary } from '../../http/params';
import type { Route } from '../../http/route';
import { validatePlacesSetting } from '../../../core/input/places-settings';

const FIELDS = ['chainMetadata', 'chainMappings', 'placeFilters'] as const;
const DOC_ID = 'places-settings';
const MAX_SETTINGS_BYTES = 256 * 1024;

type PlacesSettings = Record<(typeof FIELDS)[number], Record<string, unknown>>;

/**
 * Radar's documented answers carry the fields at the top level; Waymark first answered them under
 * `settings`, which stays for its existing callers.
 */
function answer(settings: PlacesSettings): Record<string, unknown> {
  return { ...settings, settings };
}

export function settingsRoutes(store: Store): Route[] {
  const rate = { name: 'settings', perSecond: 10 };
  const read = async (scope: { projectId: string; live: boolean }): Promise<PlacesSettings> => {
    const doc = await store.get(SETTINGS, scope, DOC_ID);
    const out = {} as PlacesSettings;
    for (const f of FIELDS) out[f] = doc?.[f] ?? {};
    return out;
  };
  return [
    {
      method: 'GET', path: '/v1/settings', auth: 'secret', rate,
      handler: async ({ scope }) => ({ body: answer(await read(scope)) }),
    },
    {
      method: 'PATCH', path: '/v1/settings', auth: 'secret', rate,
      handler: async ({ scope, body, now }) => {
        for (const name of Object.keys(body)) {
          if (!(FIELDS as readonly string[]).includes(name)) throw new BadRequest(name, `${name} is not a settings field; use ${FIELDS.join(', ')}`);
        }
        const patch: Partial<PlacesSettings> = {};
        for (const f of FIELDS) {
          const value = readDictionary(body[f], f);
          if (value !== undefined) patch[f] = validatePlacesSetting(f, value);
        }
        // Read, merge, write under a lock: PATCHes of different fields at once must not undo each other.
        return store.withLock(JSON.stringify(['places-settings', scope.projectId, scope.live]), async () => {
          const next = { ...(await read(scope)), ...patch };
          if (JSON.stringify(next).length > MAX_SETTINGS_BYTES) throw new BadRequest('body', `settings must be smaller than ${MAX_SETTINGS_BYTES / 1024} KiB`);
          const at = now.toISOString();
          const existing = await store.get(SETTINGS, scope, DOC_ID);
          await store.write([put(SETTINGS, scope, { _id: DOC_ID, createdAt: existing?.createdAt ?? at, updatedAt: at, ...next })]);
          return { body: answer(next) };
        });
      },
    },
  ];
}
