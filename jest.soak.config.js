import behaviour, { soakNames } from './jest.config.js';

/** `npm run test:soak`: the crash, restart, failover, topology, fuzz, load and process-start files (jest.config.js lists them). */
export default {
  ...behaviour,
  testMatch: soakNames.map((name) => `<rootDir>/test/e2e/${name}.e2e-spec.ts`),
  testPathIgnorePatterns: ['/node_modules/'],
};
