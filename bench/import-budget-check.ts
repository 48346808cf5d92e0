// The issue's must-show check at its real size, too slow for the test suite (two whole imports of a
// tiled region; test/data/import-memory-budget.test.ts does it on one tile): a region imported with a
// small memory budget finishes, and its files are byte for byte those of an import without a budget.
// Each import runs in its own process (bench/import-region.ts), so each peak RSS is its own.
//
// Run: npm run bench:build && node dist/bench/import-budget-check.js /work/scratch/b4.osm.pbf [MiB, default 300]
// Exit code 0 when every file matches, 1 otherwise.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function importKept(file: string, budgetMiB?: number): { dir: string; output: string } {
  const args = [path.join(__dirname, 'import-region.js'), file, ...(budgetMiB === undefined ? [] : ['--memory-budget', String(budgetMiB)])];
  const run = spawnSync(process.execPath, args, { env: { ...process.env, KEEP: '1' }, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`import ${budgetMiB === undefined ? 'without a budget' : `with ${budgetMiB} MiB`} failed (${run.status}):\n${run.stderr.slice(-4000)}`);
  const kept = /^kept: (.+)$/m.exec(run.stdout);
  if (!kept) throw new Error('import-region did not say where it kept the data');
  // The figures only: the progress lines went to stderr.
  return { dir: kept[1], output: run.stdout.trim() };
}

/** Every file of each stage's folder, relative to the extract folder (the manifest differs by nature: times, peak). */
function stageFiles(dataDir: string): Map<string, string> {
  const extracts = path.join(dataDir, 'extracts');
  const name = fs.readdirSync(extracts).find((f) => !f.startsWith('.'))!;
  const root = path.join(extracts, name);
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (full !== path.join(root, 'extract.json')) out.set(path.relative(root, full), full);
    }
  };
  walk(root);
  return out;
}

function main(): number {
  const file = process.argv[2];
  const budget = Number(process.argv[3] ?? 300);
  if (!file || !fs.existsSync(file) || !(budget > 0)) {
    console.error('usage: node dist/bench/import-budget-check.js FILE.osm.pbf [MiB]');
    return 2;
  }
  const free = importKept(file);
  const budgeted = importKept(file, budget);
  try {
    console.log(`## without a budget\n${free.output}\n\n## with --memory-budget ${budget}\n${budgeted.output}\n`);
    const a = stageFiles(free.dir);
    const b = stageFiles(budgeted.dir);
    let differing = 0;
    for (const rel of [...new Set([...a.keys(), ...b.keys()])].sort()) {
      const fa = a.get(rel);
      const fb = b.get(rel);
      const same = fa !== undefined && fb !== undefined && fs.readFileSync(fa).equals(fs.readFileSync(fb));
      if (!same) differing++;
      console.log(`${same ? 'same' : 'DIFFERENT'}  ${rel}  ${fa ? fs.statSync(fa).size : '-'} / ${fb ? fs.statSync(fb).size : '-'} bytes`);
    }
    console.log(differing === 0 ? `every file the same with and without a ${budget} MiB budget` : `${differing} files differ`);
    return differing === 0 ? 0 : 1;
  } finally {
    fs.rmSync(free.dir, { recursive: true, force: true });
    fs.rmSync(budgeted.dir, { recursive: true, force: true });
  }
}

process.exitCode = main();
