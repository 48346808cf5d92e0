// Makes a recording comparable with one made by another process: what differs between two runs of one
// build by design (ids, API keys, webhook tokens, the clock, the port and data directory) is replaced by
// a placeholder numbered by first appearance, so a reference between answers (an id a later request
// sends back) still has to match. Everything else is left exactly as answered.
import { SCRIPTED_SPAN_MS, type RecordedPair, type Recording } from './recorder';

const KEY = /prj_(test|live)_(pk|sk)_[0-9a-f]{40}/g;
/** A secret key as lists show it: its first 16 characters and an ellipsis. */
const KEY_DISPLAY = /prj_(test|live)_(pk|sk)_[0-9a-f]{4}…/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
/** Ids shaped like MongoDB ObjectIds (core/object-id.ts). */
const OBJECT_ID = /\b[0-9a-f]{24}\b/g;
/** Webhook signing tokens and other random hex. */
const LONG_HEX = /\b[0-9a-f]{32,}\b/g;
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})\b/g;
const LOCAL_URL = /https?:\/\/127\.0\.0\.1:\d+/g;
/**
 * Durations the server or the importer measured, never the same twice: GET /ready's `ms` per check, an
 * extract's import summary (`car seconds`: time spent contracting the car graph).
 */
const MEASURED = /^(ms|\w+ seconds)$/;

export class Normaliser {
  private readonly seen = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly base: number,
    private readonly dataDir?: string,
  ) {}

  private placeholder(kind: string, value: string): string {
    const key = `${kind}\u0000${value}`;
    let name = this.seen.get(key);
    if (name === undefined) {
      const n = (this.counts.get(kind) ?? 0) + 1;
      this.counts.set(kind, n);
      name = `<${kind}#${n}>`;
      this.seen.set(key, name);
    }
    return name;
  }

  /** The script's own times keep their offset from the base; the server's clock reads <now>. */
  private time(text: string): string {
    const delta = Date.parse(text) - this.base;
    if (Number.isFinite(delta) && delta >= 0 && delta < SCRIPTED_SPAN_MS && delta % 1000 === 0) return `<base+${delta / 1000}s>`;
    return '<now>';
  }

  string(s: string): string {
    let out = s;
    if (this.dataDir) out = out.split(this.dataDir).join('<dataDir>');
    return out
      .replace(LOCAL_URL, '<gateway>')
      .replace(KEY, (m, env: string, kind: string) => this.placeholder(`key:${env}_${kind}`, m))
      .replace(KEY_DISPLAY, (m, env: string, kind: string) => this.placeholder(`keyShown:${env}_${kind}`, m))
      .replace(UUID, (m) => this.placeholder('uuid', m))
      .replace(LONG_HEX, (m) => this.placeholder('hex', m))
      .replace(OBJECT_ID, (m) => this.placeholder('id', m))
      .replace(ISO_TIME, (m) => this.time(m));
  }

  value(v: unknown): unknown {
    if (typeof v === 'string') return this.string(v);
    if (Array.isArray(v)) return v.map((x) => this.value(x));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[this.string(k)] = MEASURED.test(k) && typeof x === 'number' ? '<measured>' : this.value(x);
      return out;
    }
    return v;
  }

  pair(p: RecordedPair): RecordedPair {
    return { ...p, path: this.string(p.path), request: this.value(p.request), body: this.value(p.body) };
  }
}

/** The recording with every pair normalised in order (placeholders are numbered across the whole run). */
export function normaliseRecording(r: Recording, dataDir?: string): RecordedPair[] {
  const n = new Normaliser(r.base, dataDir);
  return r.pairs.map((p) => n.pair(p));
}
