// Loads TypeScript files through swc (as jest does) in a plain Node context: a worker thread started by
// a test runs the sources of the code under test, which are not compiled to JavaScript in the repo.
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
