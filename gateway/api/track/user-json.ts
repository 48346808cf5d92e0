// A tracked user serialised once per update (#14): the text of the user as the API shows it serves the
// track answer, and the stored document's text is that text with the hidden fields (`_visits`, …)
// appended. JSON of a ~4 KiB user costs 20–30 µs each time; the track path made it twice.
import { REVISION_FIELD } from '../../../adapters/store/port';
import { publicView } from '../collections';
import type { UserDoc } from './track-service';

export interface UserJson {
  /** JSON.stringify(publicView(user)). */
  shown: string;
  /** The stored document: every field but the revision (which lives in its own column), shown ones first. */
  stored: string;
}

export function userJson(user: UserDoc): UserJson {
  const shown = JSON.stringify(publicView(user));
  let hidden = '';
  for (const key of Object.keys(user)) {
    if (key === '_id' || key === REVISION_FIELD || !key.startsWith('_')) continue;
    const text = JSON.stringify(user[key]) as string | undefined;
    if (text !== undefined) hidden += `,${JSON.stringify(key)}:${text}`;
  }
  if (hidden === '') return { shown, stored: shown };
  return { shown, stored: shown === '{}' ? `{${hidden.slice(1)}}` : `${shown.slice(0, -1)}${hidden}}` };
}
