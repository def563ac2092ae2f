import { dropSuiteDatabases } from './global-setup.mjs';

export default async function globalTeardown() {
  await globalThis.__TEST_PRISMS__?.close();
  await globalThis.__TEST_BROWSER__?.close?.();
  if (globalThis.__TEST_DB__) await globalThis.__TEST_DB__.stop();
  // On a server of one's own (TEST_DATABASE_URL), leave it as it was found.
  else if (process.env.TEST_TEMPLATE_URL) await dropSuiteDatabases(process.env.TEST_TEMPLATE_URL, { template: true });
}
