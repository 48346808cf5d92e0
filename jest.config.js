// Tests are TypeScript compiled by swc (no type check here: `npm test` runs tsc first).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(ts|js)$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  // rbush, quickselect, flatbush, flatqueue and the OpenAPI validator ship ES modules only; jest's CommonJS runtime needs them compiled.
  transformIgnorePatterns: ['/node_modules/(?!(rbush|quickselect|flatbush|flatqueue|@seriousme/openapi-schema-validator)/)'],
  testTimeout: 30000,
  // Probes PostgreSQL/PostGIS once and opens the skip log (test/support/requires.ts).
  globalSetup: '<rootDir>/test/support/probe-services.ts',
  // CI reads a plain "N passed, N failed" line; jest's own summary is not one of the formats it knows.
  reporters: ['default', '<rootDir>/test/support/summary-line-reporter.js'],
};
