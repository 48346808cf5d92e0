// Every repository path the documentation names exists (issue #29.9): docs that point at moved or
// never-merged files, or at files only the project's workspace has, send readers nowhere. Checked in
// README.md and docs/*.md: relative markdown links, and inline code that reads as a path in the
// repository (its first segment is a top-level entry of the repository, or it starts with ../).
// Fenced code blocks are left alone: they show commands and files an operator makes. Tables are
// checked to be whole (a blank line inside one broke docs/trips.md).
import fs from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(__dirname, '../..');
const DOCS = ['README.md', ...fs.readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
/** Where the shared test fixtures live beside a clone (README "Test it"); not part of the repository. */
const FIXTURES_BESIDE = '../shared/fixtures';

/** The top-level entries a path in inline code may start with (those in git, not build output). */
const TOP = new Set(
  fs.readdirSync(REPO).filter((name) => !['node_modules', 'dist', '.git'].includes(name)),
);

/** The document without its fenced code blocks (their lines blanked, so line numbers stay). */
function withoutFences(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

interface Named {
  doc: string;
  line: number;
  /** As written. */
  text: string;
  /** Resolved against the repository root. */
  resolved: string;
}

/** A relative link target, without its #fragment; undefined for URLs, anchors and mail addresses. */
function linkTarget(raw: string): string | undefined {
  const target = raw.trim().replace(/\s+"[^"]*"$/, '').replace(/^<|>$/g, '');
  if (target === '' || target.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  return decodeURI(target.split('#')[0]);
}

/** Inline code that reads as a path in the repository; undefined for anything else. */
function codePath(raw: string): string | undefined {
  // Commands, placeholders, globs, elisions, options and URLs are not paths.
  if (/[\s<>*…{}$|=,()[\]]/.test(raw) || raw.includes('://') || raw.startsWith('-')) return undefined;
  const text = raw.replace(/:\d+(-\d+)?$/, '');
  if (text.startsWith('../')) return text;
  // `./.waymark` (the default data directory) is made at run time: only `./` + a repository entry counts.
  const first = text.replace(/^\.\//, '').split('/')[0];
  if (!TOP.has(first)) return undefined;
  // A bare top-level name (`data`, `test`) in prose is a word as often as a path.
  return text.includes('/') || text.includes('.') ? text : undefined;
}

function namedPaths(doc: string): Named[] {
  const lines = withoutFences(fs.readFileSync(path.join(REPO, doc), 'utf8'));
  const dir = path.dirname(path.join(REPO, doc));
  const found: Named[] = [];
  lines.forEach((line, i) => {
    // Links first, then inline code outside them.
    for (const m of line.matchAll(/\]\(([^)\s]+(?:\s+"[^"]*")?)\)/g)) {
      const target = linkTarget(m[1]);
      if (target !== undefined) found.push({ doc, line: i + 1, text: m[1], resolved: path.resolve(dir, target) });
    }
    for (const m of line.matchAll(/`([^`]+)`/g)) {
      const text = codePath(m[1]);
      if (text === undefined) continue;
      if (text.startsWith(FIXTURES_BESIDE)) continue;
      // Inline paths are written from the repository root (`server/app.ts`, `../shared/…` beside it).
      const base = REPO;
      found.push({ doc, line: i + 1, text, resolved: path.resolve(base, text) });
    }
  });
  return found;
}

test('the documents checked include the README and every page of docs/', () => {
  expect(DOCS).toContain('README.md');
  expect(DOCS).toContain('docs/architecture.md');
  expect(DOCS.length).toBeGreaterThan(10);
});

test('the scanner finds links and inline paths, and refuses what a reader cannot open', () => {
  expect(codePath('server/app.ts')).toBe('server/app.ts');
  expect(codePath('ports/router.ts:12')).toBe('ports/router.ts');
  expect(codePath('docker-compose.yml')).toBe('docker-compose.yml');
  expect(codePath('npm start')).toBeUndefined();
  expect(codePath('<dataDir>/extracts/<name>/')).toBeUndefined();
  expect(codePath('places/places.json')).toBeUndefined();
  expect(codePath('./.waymark')).toBeUndefined();
  expect(codePath('../shared/spec/interface-spec.md')).toBe('../shared/spec/interface-spec.md');
  expect(linkTarget('routing.md#units')).toBe('routing.md');
  expect(linkTarget('https://example.com/x.md')).toBeUndefined();
  expect(linkTarget('#limitations')).toBeUndefined();
});

test('every path named in README.md and docs/*.md exists in the repository', () => {
  const missing: string[] = [];
  let checked = 0;
  for (const doc of DOCS) {
    for (const named of namedPaths(doc)) {
      checked++;
      const inside = named.resolved === REPO || named.resolved.startsWith(REPO + path.sep);
      if (!inside) missing.push(`${named.doc}:${named.line}: ${named.text} is outside the repository (readers of a clone do not have it)`);
      else if (!fs.existsSync(named.resolved)) missing.push(`${named.doc}:${named.line}: ${named.text} does not exist`);
    }
  }
  expect(missing).toEqual([]);
  // The docs name a few hundred files; a scanner that finds none checks nothing.
  expect(checked).toBeGreaterThan(200);
});

test('every table in README.md and docs/*.md starts with a header and its separator row', () => {
  // A blank line inside a table ends it: the rows after it render as text with bars in it.
  const broken: string[] = [];
  for (const doc of DOCS) {
    const lines = withoutFences(fs.readFileSync(path.join(REPO, doc), 'utf8'));
    lines.forEach((line, i) => {
      const row = line.trimStart().startsWith('|');
      const startsTable = row && !(lines[i - 1] ?? '').trimStart().startsWith('|');
      if (startsTable && !/^\s*\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(lines[i + 1] ?? '')) broken.push(`${doc}:${i + 1}: ${line.slice(0, 60)}`);
    });
  }
  expect(broken).toEqual([]);
});
