// A file's folder says what it may import (docs/architecture.md, "Layers"). Reads the import statements
// of every TypeScript source (type-only imports included: a circle of types is still a circle) and checks
// the rules below. Known violations are listed by name: a new one fails, and so does a listed one that
// is gone, so the lists only shrink.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, sourceFiles } from './source-files';
import { FEATURE_IMPORTS_KNOWN, FILE_CYCLES_KNOWN, FOLDER_CYCLES_KNOWN, RULE_BREAKS_KNOWN } from './known-violations';

const LAYERS = ['core', 'ports', 'adapters', 'importers', 'server'] as const;
type Layer = (typeof LAYERS)[number];

/** What each layer may import besides itself. */
const MAY_IMPORT: Record<Layer, Layer[]> = {
  core: [],
  ports: ['core'],
  adapters: ['core', 'ports'],
  // An importer is a batch program: it may use an adapter's data (the bundled country boundaries), never the server.
  importers: ['core', 'ports', 'adapters'],
  server: ['core', 'ports', 'adapters', 'importers'],
};
/** Packages that do I/O or speak a protocol: core takes plain data and returns plain data. */
const IMPURE = /^(node:)?(http|https|net|dns|child_process|worker_threads|express|pg|better-sqlite3|ioredis|undici|nodemailer|@aws-sdk\/.*)$/;
/** Only the file formats in core read and write files. */
const FILES = /^(node:)?fs(\/promises)?$/;

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The repository file a relative specifier names, or `package:NAME` for a bare one. */
function target(from: string, spec: string): string {
  if (!spec.startsWith('.')) return `package:${spec}`;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const c of [base, `${base}.ts`, `${base}.d.ts`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')]) {
    if (fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile()) return c;
  }
  throw new Error(`${from}: cannot resolve ${spec}`);
}

export function importGraph(files: string[]): Map<string, string[]> {
  return new Map(files.map((f) => [f, [...fs.readFileSync(path.join(ROOT, f), 'utf8').matchAll(IMPORT)].map((m) => target(f, m[1]))]));
}

const layerOf = (f: string): Layer | undefined => LAYERS.find((l) => f.startsWith(`${l}/`));
const featureOf = (f: string): string | undefined => /^server\/features\/([^/]+)\//.exec(f)?.[1];

/** Every import that breaks a rule, as `from -> to (rule)`. */
export function ruleBreaks(graph: Map<string, string[]>): string[] {
  const breaks: string[] = [];
  for (const [from, targets] of graph) {
    const layer = layerOf(from)!;
    for (const to of targets) {
      const toLayer = layerOf(to);
      if (to.startsWith('package:')) {
        const name = to.slice('package:'.length);
        if (layer === 'core' && IMPURE.test(name)) breaks.push(`${from} -> ${name} (core does no I/O)`);
        if (layer === 'core' && FILES.test(name) && !from.startsWith('core/formats/')) breaks.push(`${from} -> ${name} (only core/formats reads files)`);
      } else if (toLayer === undefined) {
        breaks.push(`${from} -> ${to} (outside the layers)`);
      } else if (toLayer !== layer && !MAY_IMPORT[layer].includes(toLayer)) {
        breaks.push(`${from} -> ${to} (${layer} may not import ${toLayer})`);
      }
    }
  }
  return breaks;
}

/** Feature folders that import another feature's files directly (not through ports or the feature context). */
export function featureImports(graph: Map<string, string[]>): string[] {
  const pairs = new Set<string>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [a, b] = [featureOf(from), featureOf(to)];
      if (a && b && a !== b) pairs.add(`${a} -> ${b}`);
    }
  }
  return [...pairs].sort();
}

/** Strongly connected sets of files (Tarjan), each sorted; only sets of two or more files. */
export function fileCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) cycles.push(set.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** A file's folder unit: `server/features/NAME`, else the layer and its first folder (`core/routing`, `server/http`). */
export function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'server' && parts[1] === 'features') return parts.slice(0, 3).join('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0];
}

/** The import graph between folder units. */
export function unitGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const units = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const set = units.get(unitOf(from)) ?? new Set<string>();
    for (const to of targets) if (graph.has(to) && unitOf(to) !== unitOf(from)) set.add(unitOf(to));
    units.set(unitOf(from), set);
  }
  return new Map([...units].map(([u, s]) => [u, [...s]]));
}

const graph = importGraph(LAYERS.flatMap((l) => sourceFiles(l)));

test('every import follows the layer rules', () => {
  expect(ruleBreaks(graph)).toEqual(RULE_BREAKS_KNOWN);
});

test('features reach each other only through ports or the feature context (known exceptions listed)', () => {
  expect(featureImports(graph)).toEqual([...FEATURE_IMPORTS_KNOWN].sort());
});

test('no circle of files, type-only imports included (known circles listed)', () => {
  expect(fileCycles(graph).map((c) => c.join(' '))).toEqual(FILE_CYCLES_KNOWN.map((c) => [...c].sort().join(' ')).sort());
});

test('no circle between folders (known circles listed)', () => {
  expect(fileCycles(unitGraph(graph)).map((c) => c.join(' '))).toEqual(FOLDER_CYCLES_KNOWN.map((c) => [...c].sort().join(' ')).sort());
});

test('no circle between the layers', () => {
  // Follows from MAY_IMPORT having no circle; checked so that an edit of the table cannot add one.
  const layerGraph = new Map(LAYERS.map((l) => [l, MAY_IMPORT[l] as string[]]));
  expect(fileCycles(layerGraph)).toEqual([]);
});
