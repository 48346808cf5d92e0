// Starts a worker thread on a TypeScript source file: tests run the sources (jest compiles them with swc),
// and a worker thread is a fresh module system that jest's transform does not reach, so the worker
// compiles its own modules with the same compiler as they are required.
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export function startTsWorker(file: string): Worker {
  const code = `
    const fs = require('node:fs');
    const { transformSync } = require(${JSON.stringify(require.resolve('@swc/core'))});
    require.extensions['.ts'] = (module, filename) => {
      const out = transformSync(fs.readFileSync(filename, 'utf8'), {
        filename, jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' },
      });
      module._compile(out.code, filename);
    };
    require(${JSON.stringify(path.resolve(file))});`;
  return new Worker(code, { eval: true });
}
