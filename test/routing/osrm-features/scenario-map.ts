// Turns OSRM scenarios into OSM XML the way OSRM's test harness draws them (features/support in
// Project-OSRM/osrm-backend, described in ../shared/fixtures/osrm-features/SOURCES.md): node maps on a grid
// (`a grid size of N meters`, 100 m by default; each character half a cell wide), ways with `highway=primary`
// and `name=<nodes>` unless the table says otherwise, node tags, relations with `way:from`, `node:via`…
// members, and for routability tables one five-node way per row, asked from its 2nd to its 4th node.
// Many scenarios share one file: each is drawn in its own slot, kilometres from the next, so that no point
// of one snaps to another's roads.
import type { LngLat } from '../../../ports/router';
import { tableRows, type Scenario } from './gherkin';

/**
 * Degrees per metre of grid, the constant of OSRM's harness (features/support/data.js, `setGridSize`): the
 * same in latitude and longitude, so a cell is the grid size north-south in OSRM's own distances and a
 * little less east-west (by the cosine of the latitude), as in OSRM's runs.
 */
const DEGREES_PER_METRE = 8.990679362704611e-6;

/** A route request of a scenario: its points and what OSRM expects. */
export interface RouteCheck {
  kind: 'route';
  points: LngLat[];
  row: Record<string, string>;
}

/** One way of a routability table, asked both ways between its 2nd and 4th node. */
export interface RoutabilityCheck {
  kind: 'routability';
  forward: [LngLat, LngLat];
  wayName: string;
  row: Record<string, string>;
}

export type Check = RouteCheck | RoutabilityCheck;

export interface DrawnScenario {
  scenario: Scenario;
  checks: Check[];
  /** Why the runner cannot ask this scenario, when it cannot. */
  unasked?: string;
}

/** Degrees between slots (≈ 11 km, far beyond the snap radius) and slots per row of the layout. */
const SLOT_DEG = 0.1;
const SLOTS_PER_ROW = 30;

interface MapNode {
  id: number;
  lon: number;
  lat: number;
  tags: Record<string, string>;
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function tagsXml(tags: Record<string, string>): string {
  return Object.entries(tags).map(([k, v]) => `<tag k="${xmlEscape(k)}" v="${xmlEscape(v)}"/>`).join('');
}

/** OSM XML for many scenarios at once, each drawn at its own slot. */
export class ScenarioMaps {
  private nextId = 1;
  private slot = 0;
  private readonly nodes: MapNode[] = [];
  private readonly ways: string[] = [];
  private readonly relations: string[] = [];

  constructor(private readonly baseLon: number, private readonly baseLat: number) {}

  private slotOrigin(): LngLat {
    const k = this.slot++;
    return [this.baseLon + (k % SLOTS_PER_ROW) * SLOT_DEG, this.baseLat + Math.floor(k / SLOTS_PER_ROW) * SLOT_DEG];
  }

  private node(lon: number, lat: number, tags: Record<string, string>): MapNode {
    const node = { id: this.nextId++, lon, lat, tags };
    this.nodes.push(node);
    return node;
  }

  private way(refs: number[], tags: Record<string, string>): number {
    const id = this.nextId++;
    this.ways.push(`<way id="${id}" version="1">${refs.map((r) => `<nd ref="${r}"/>`).join('')}${tagsXml(tags)}</way>`);
    return id;
  }

  xml(): string {
    const nodes = this.nodes.map((n) => `<node id="${n.id}" version="1" lat="${n.lat.toFixed(8)}" lon="${n.lon.toFixed(8)}">${tagsXml(n.tags)}</node>`);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="waymark-osrm-features">\n${nodes.join('\n')}\n${this.ways.join('\n')}\n${this.relations.join('\n')}\n</osm>\n`;
  }

  /** Draws a scenario and returns its checks. */
  draw(scenario: Scenario): DrawnScenario {
    let grid = 100;
    const origin = this.slotOrigin();
    const at = (cellsEast: number, cellsNorth: number): LngLat => [origin[0] + cellsEast * grid * DEGREES_PER_METRE, origin[1] + cellsNorth * grid * DEGREES_PER_METRE];
    const named = new Map<string, MapNode>();
    const locations = new Map<string, LngLat>();
    const waysByNodes = new Map<string, number>();
    const checks: Check[] = [];
    let locationShift: LngLat | null = null;
    let unasked: string | undefined;
    const addNode = (name: string, p: LngLat) => {
      if (/[a-z]/.test(name)) named.set(name, this.node(p[0], p[1], { name }));
      else locations.set(name, p);
    };
    const pointOf = (name: string): LngLat | undefined => {
      const n = named.get(name);
      return n ? [n.lon, n.lat] : locations.get(name);
    };
    const wayByName = (s: string) => waysByNodes.get(s) ?? waysByNodes.get([...s].reverse().join(''));

    for (const step of scenario.steps) {
      const t = step.text;
      let m: RegExpExecArray | null;
      if ((m = /^a grid size of ([0-9.]+) meters$/.exec(t))) grid = Number(m[1]);
      else if (t === 'the node map' && step.doc !== undefined) {
        step.doc.split('\n').forEach((row, ri) => {
          [...row].forEach((ch, ci) => {
            if (/[a-z0-9]/.test(ch)) addNode(ch, at(ci * 0.5, -ri));
          });
        });
      } else if (t === 'the node locations' && step.table) {
        for (const r of tableRows(step.table)) {
          const lon = Number(r.lon), lat = Number(r.lat);
          // Absolute coordinates: moved as a whole into this scenario's slot.
          locationShift ??= [origin[0] - lon, origin[1] - lat];
          addNode(r.node, [lon + locationShift[0], lat + locationShift[1]]);
        }
      } else if (t === 'the nodes' && step.table) {
        for (const r of tableRows(step.table)) {
          const n = named.get(r.node);
          if (!n) continue;
          for (const [k, v] of Object.entries(r)) if (k !== 'node' && k !== 'id' && v !== '') n.tags[k] = v;
        }
      } else if (/^the ways( with locations)?$/.test(t) && step.table) {
        for (const r of tableRows(step.table)) {
          const refs = [...r.nodes].map((c) => named.get(c)?.id).filter((id): id is number => id !== undefined);
          const tags: Record<string, string> = { highway: 'primary' };
          for (const [k, v] of Object.entries(r)) if (k !== 'nodes' && v !== '') tags[k] = v;
          // An empty highway cell is an empty tag in OSRM's harness, which no profile routes: as absent.
          if (r.highway === '(nil)' || r.highway === '') delete tags.highway;
          if (r.name === undefined) tags.name = r.nodes;
          else if (r.name === '""' || r.name === "''") tags.name = '';
          else if (r.name === '' || r.name === '(nil)') delete tags.name;
          for (const [k, v] of Object.entries(tags)) if (v === '(nil)') delete tags[k];
          waysByNodes.set(r.nodes, this.way(refs, tags));
        }
      } else if (t === 'the relations' && step.table) {
        const [head, ...rows] = step.table;
        for (const row of rows) {
          const members: string[] = [];
          const tags: Record<string, string> = {};
          head.forEach((key, i) => {
            const value = row[i] ?? '';
            const node = /^node:?(.*)$/.exec(key), way = /^way:?(.*)$/.exec(key);
            if (node || way) {
              for (const name of value.split(',').map((v) => v.trim()).filter((v) => v !== '')) {
                const ref = node ? named.get(name)?.id : wayByName(name);
                if (ref !== undefined) members.push(`<member type="${node ? 'node' : 'way'}" ref="${ref}" role="${xmlEscape((node ?? way)![1])}"/>`);
              }
            } else if (value !== '') tags[key] = value;
          });
          const id = this.nextId++;
          this.relations.push(`<relation id="${id}" version="1">${members.join('')}${tagsXml(tags)}</relation>`);
        }
      } else if (t === 'routability should be' && step.table) {
        tableRows(step.table).forEach((r, i) => {
          const rowOrigin = i === 0 ? origin : this.slotOrigin();
          const p = (cellsEast: number): LngLat => [rowOrigin[0] + cellsEast * grid * DEGREES_PER_METRE, rowOrigin[1]];
          const wayTags: Record<string, string> = { highway: 'primary' };
          const nodeTags: Record<string, string> = {};
          for (const [k, v] of Object.entries(r)) {
            if (/^(forw|backw|bothw)/.test(k) || v === '') continue;
            const nodeKey = /^node\/(.*)$/.exec(k);
            if (nodeKey) { if (v !== '(nil)') nodeTags[nodeKey[1]] = v; } else if (v === '(nil)') delete wayTags[k];
            else wayTags[k] = v;
          }
          const wayName = `w${i}`;
          wayTags.name = wayName;
          const refs = [0, 1, 2, 3, 4].map((c) => this.node(p(c)[0], p(c)[1], c === 2 ? { ...nodeTags } : {}).id);
          this.way(refs, wayTags);
          checks.push({ kind: 'routability', forward: [p(1), p(3)], wayName, row: r });
        });
      } else if (t === 'I route I should get' && step.table) {
        for (const r of tableRows(step.table)) {
          const names = r.from !== undefined && r.to !== undefined ? [r.from, r.to] : (r.waypoints ?? '').split(',').map((s) => s.trim());
          const points = names.map(pointOf);
          if (points.some((q) => q === undefined)) {
            unasked = `unknown point in ${names.join(',')}`;
            continue;
          }
          checks.push({ kind: 'route', points: points as LngLat[], row: r });
        }
      } else if (/^I (request a travel (time|distance) matrix|match|plan a trip) I should get$/.test(t)) {
        unasked ??= `asks OSRM's ${/matrix/.test(t) ? 'table' : /match/.test(t) ? 'match' : 'trip'} service`;
      }
    }
    return { scenario, checks, unasked };
  }
}

/** Why a scenario tests OSRM's tooling rather than routing (skipped and counted), or undefined. */
export function toolingReason(scenario: Scenario, profile: string): string | undefined {
  // OSRM's own harness runs `not @stress and not @todo` (its cucumber.mjs): a @todo scenario states what
  // OSRM does not do yet, so it is no account of OSRM's behaviour.
  if (scenario.tags.includes('todo')) return "tagged @todo (OSRM's harness does not run it)";
  if (scenario.tags.includes('stress')) return "tagged @stress (OSRM's harness does not run it)";
  for (const s of scenario.steps) {
    if (/^the profile file/.test(s.text)) return 'changes the Lua profile';
    if (/extra arguments/.test(s.text)) return 'passes OSRM extraction/contraction arguments';
    if (/^the (speed|turn penalty) file$/.test(s.text)) return 'loads a traffic file';
    if (/^the raster source$/.test(s.text)) return 'loads a raster source';
    const p = /^the profile "([^"]+)"$/.exec(s.text);
    if (p && p[1] !== profile) return `uses OSRM's "${p[1]}" test profile`;
  }
  return undefined;
}
