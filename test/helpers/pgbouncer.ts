import { pgbouncerMissing } from './pgbouncer-server.js';

export * from './pgbouncer-server.js';

/** `describe`, or `describe.skip` with `missing` printed when something the tests need is missing. */
export function describeUnless(missing: string | undefined): jest.Describe {
  return missing
    ? (((...args: Parameters<jest.Describe>) => {
        console.warn(missing);
        return describe.skip(...args);
      }) as jest.Describe)
    : describe;
}

/** `describe`, or `describe.skip` with the reason printed, as PgBouncer is there or not. */
export const describeWithPgBouncer = describeUnless(pgbouncerMissing);
