/** Jest runs the TypeScript sources as native ESM (agenda 6 is ESM-only). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  setupFiles: ['<rootDir>/test/setup-file.js'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 60000,
  // One test file at a time (npm test runs a single worker), in a worker that is replaced once it
  // has grown past 1 GB: the in-process service of a late file does not pay for the heap and GC
  // of every file before it.
  workerIdleMemoryLimit: '1GB',
  // A stray timer in a dependency must never hang CI after the suite has finished.
  forceExit: true,
};
