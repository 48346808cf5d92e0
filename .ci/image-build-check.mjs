// The Docker image's build, without Docker (no engine runs on the CI machines): reads the Dockerfile,
// gives each stage a folder of its own under a temporary directory, copies into it exactly what each
// COPY names (from the build context or from an earlier stage), runs the build stages' RUN steps there,
// then starts the final stage's ENTRYPOINT + CMD and asks it for /ready, /dashboard/ and /docs.
// A file the build or the server needs that the Dockerfile does not copy fails here as it would in
// `docker build` or at the container's start.
//
// What differs from a real image, on purpose:
// - `apt-get` steps are skipped: the machine's own toolchain stands in for the image's packages.
// - RUN steps in the final stage (mkdir/chown of the volume) are skipped: they act on the image's root.
// - node_modules is seeded from the checkout's before the first `npm install` (a layer cache, in effect):
//   npm then checks it against package-lock.json and runs the `prepare` build as in the image, in
//   seconds instead of the ten minutes a download of every package takes here.
// Usage: node .ci/image-build-check.mjs [Dockerfile]   (exit 0: built and answered; 1: it did not)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCKERFILE = path.resolve(process.argv[2] ?? path.join(REPO, 'Dockerfile'));
const started = Date.now();
const say = (line) => process.stdout.write(`image check (${((Date.now() - started) / 1000).toFixed(1)} s): ${line}\n`);

/** Instructions with continuations joined and comments dropped: [keyword, rest]. */
function instructions(text) {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map((l) => {
    const space = l.search(/\s/);
    return [l.slice(0, space).toUpperCase(), l.slice(space + 1).trim()];
  });
}

/** JSON array form (`["node", "x"]`) or shell form of CMD / ENTRYPOINT. */
function commandWords(rest) {
  return rest.startsWith('[') ? JSON.parse(rest) : ['sh', '-c', rest];
}

/** ENV a=b c=d (or the old `ENV a b` form). */
function envPairs(rest) {
  const pairs = {};
  if (!rest.includes('=')) {
    const [name, ...value] = rest.split(/\s+/);
    pairs[name] = value.join(' ');
    return pairs;
  }
  for (const m of rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)) pairs[m[1]] = m[2].replace(/^"|"$/g, '');
  return pairs;
}

function parseStages(text) {
  const stages = [];
  for (const [keyword, rest] of instructions(text)) {
    if (keyword === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      stages.push({ image: m[1], name: m[2] ?? String(stages.length), steps: [] });
    } else if (stages.length === 0) {
      if (keyword !== 'ARG') throw new Error(`${keyword} before FROM`);
    } else {
      stages.at(-1).steps.push([keyword, rest]);
    }
  }
  return stages;
}

/** Copies like COPY: a folder's contents into the destination, files into it when it is a folder. */
function copyInto(from, to, several, link) {
  if (!fs.existsSync(from)) throw new Error(`COPY names ${from}, which does not exist`);
  const intoFolder = several || to.endsWith('/') || (fs.existsSync(to) && fs.statSync(to).isDirectory() && !fs.statSync(from).isDirectory());
  const target = intoFolder ? path.join(to, path.basename(from)) : to;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // From an earlier stage: hard links (nothing changes that stage's files afterwards), so that copying its
  // node_modules costs no time. From the context: a real copy.
  if (link) execFileSync('cp', ['-al', from + (fs.statSync(from).isDirectory() ? '/.' : ''), target], { stdio: 'inherit' });
  else fs.cpSync(from, target, { recursive: true });
}

function run(command, cwd, env) {
  execFileSync('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the final stage as the container would, and asks it for the pages an operator opens first. */
async function smokeTest(stage, root, workdir, env) {
  let entry = [];
  let cmd = [];
  for (const [keyword, rest] of stage.steps) {
    if (keyword === 'ENTRYPOINT') entry = commandWords(rest);
    if (keyword === 'CMD') cmd = commandWords(rest);
  }
  const port = await freePort();
  const dataDir = path.join(root, 'data-volume');
  fs.mkdirSync(dataDir);
  const words = [...entry, ...cmd];
  if (words[0] === 'node') words[0] = process.execPath;
  const child = spawn(words[0], words.slice(1), {
    cwd: workdir, env: { ...env, PORT: String(port), HOST: '127.0.0.1', WAYMARK_DATA_DIR: dataDir, WAYMARK_STORE: 'sqlite', WAYMARK_RATE_LIMITER: 'memory' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the image's command exited (${child.exitCode}):\n${output}`);
      const ok = await fetch(`${base}/ready`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the image's command did not answer /ready within 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const page of ['/dashboard/', '/dashboard/app.js', '/docs', '/v1/openapi.json']) {
      const status = (await fetch(base + page)).status;
      if (status !== 200) throw new Error(`GET ${page} answered ${status} from the image's file set:\n${output}`);
    }
    say(`${words.join(' ')} answered /ready, /dashboard/, /docs and /v1/openapi.json`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function main() {
  const stages = parseStages(fs.readFileSync(DOCKERFILE, 'utf8'));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-image-'));
  const roots = new Map();
  const final = stages.at(-1);
  try {
    for (const stage of stages) {
      const root = path.join(tmp, `stage-${stage.name}`);
      roots.set(stage.name, root);
      let workdir = root;
      const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? os.tmpdir() };
      let seeded = false;
      for (const [keyword, rest] of stage.steps) {
        if (keyword === 'WORKDIR') {
          workdir = path.join(root, rest);
          fs.mkdirSync(workdir, { recursive: true });
        } else if (keyword === 'ENV') {
          Object.assign(env, envPairs(rest));
        } else if (keyword === 'COPY') {
          const words = rest.split(/\s+/);
          const fromFlag = words[0].startsWith('--from=') ? words.shift().slice('--from='.length) : undefined;
          const dest = words.pop();
          const to = path.isAbsolute(dest) ? path.join(root, dest) : path.join(workdir, dest);
          const base = fromFlag === undefined ? REPO : roots.get(fromFlag);
          if (base === undefined) throw new Error(`COPY --from=${fromFlag}: no such stage before this one`);
          for (const src of words) {
            const from = fromFlag === undefined ? path.join(base, src) : path.join(base, src.replace(/^\//, ''));
            copyInto(from, to, words.length > 1, fromFlag !== undefined);
          }
        } else if (keyword === 'RUN') {
          if (stage === final) {
            say(`skipped in the final stage (acts on the image's root): RUN ${rest}`);
          } else if (/^apt-get\b/.test(rest)) {
            say(`skipped (system packages; this machine's stand in): RUN ${rest}`);
          } else {
            if (!seeded && /\bnpm (install|ci)\b/.test(rest)) {
              execFileSync('cp', ['-a', '--reflink=auto', path.join(REPO, 'node_modules'), path.join(workdir, 'node_modules')]);
              seeded = true;
              say('seeded node_modules from the checkout');
            }
            say(`RUN ${rest}`);
            run(rest, workdir, env);
          }
        }
      }
      // The Dockerfile's ENV of the final stage applies to the smoke test.
      if (stage === final) await smokeTest(stage, root, workdir, env);
    }
    say('the image builds and serves from the files the Dockerfile copies');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`image check failed: ${err.message}\n`);
  process.exitCode = 1;
});
