// `npm start` builds only when dist/ is older than its sources (bin/build-if-stale.js, through
// bin/build-state.js): a tree whose build is current starts serving at once; an edited source, or a
// missing build, builds first. Checked on a temporary tree with set modification times.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { staleSteps } = require('../../bin/build-state') as { staleSteps(root: string): string[] };

function tree(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-build-state-'));
  const write = (rel: string, seconds: number) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), '');
    fs.utimesSync(path.join(root, rel), seconds, seconds);
  };
  write('server/app.ts', 1000);
  write('ports/store.ts', 1000);
  write('tsconfig.json', 1000);
  write('dashboard/src/main.ts', 1000);
  write('dashboard/index.html', 1000);
  write('dist/server/cli/main.js', 2000);
  write('dist/dashboard/app.js', 2000);
  return root;
}

test.each([
  ['a current build', () => undefined, []],
  ['an edited gateway source', (root: string) => fs.utimesSync(path.join(root, 'ports/store.ts'), 3000, 3000), ['gateway']],
  ['an edited dashboard page', (root: string) => fs.utimesSync(path.join(root, 'dashboard/index.html'), 3000, 3000), ['dashboard']],
  ['a changed tsconfig.json', (root: string) => fs.utimesSync(path.join(root, 'tsconfig.json'), 3000, 3000), ['gateway']],
  ['no build at all', (root: string) => fs.rmSync(path.join(root, 'dist'), { recursive: true }), ['gateway', 'dashboard']],
  ['a tree without sources (an image holds dist/ only)', (root: string) => {
    for (const d of ['server', 'ports', 'dashboard']) fs.rmSync(path.join(root, d), { recursive: true });
  }, []],
] as Array<[string, (root: string) => void, string[]]>)('%s → %j', (_name, change, expected) => {
  const root = tree();
  try {
    change(root);
    expect(staleSteps(root)).toEqual(expected);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
