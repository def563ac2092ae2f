/**
 * Jest runs the TypeScript sources as native ESM (agenda 6 is ESM-only). Two tiers: this config
 * (`npm test`) runs the behaviour specs; jest.soak.config.js (`npm run test:soak`) runs the files
 * below, which crash, restart, fuzz, load or start whole processes and topologies.
 */
export const soakNames = [
  // crash: processes (and PostgreSQL) SIGKILLed in the middle of work
  'billing-crash',
  'payment-crash',
  'payment-crash-live',
  'webhook-outbox',
  'idempotency-lease',
  // restart and failover, topologies behind PgBouncer
  'database-restart',
  'log-privacy-outage',
  'topology-failover',
  'topology-pgbouncer',
  'topology-production',
  // fuzz and load
  'fuzz',
  'payment-load',
  'pool-discipline',
  // process start: `npm start`, the built service on fresh data directories, with and without stored processor keys
  'npm-start',
  'processor-start',
  'start',
  'readme-quickstart',
];

export default {
  // Node's, with a database of the file's own made from the migrated template (test/database-per-file.mjs).
  testEnvironment: '<rootDir>/test/database-per-file.mjs',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', `<rootDir>/test/e2e/(${soakNames.join('|')})\\.e2e-spec\\.ts$`],
  setupFiles: ['<rootDir>/test/setup-file.js'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 60000,
  // A worker is replaced once it has grown past 1 GB: the in-process service of a late file does
  // not pay for the heap and GC of every file before it.
  workerIdleMemoryLimit: '1GB',
  // A stray timer in a dependency must never hang CI after the suite has finished.
  forceExit: true,
};
