// MikroORM keeps decorator metadata in a process-wide store; each jest test file has its own
// realm, so start every file with an empty store (otherwise file 2 reuses file 1's objects).
for (const key of Object.keys(globalThis)) if (key.startsWith('mikro-orm-')) delete globalThis[key];

// Every service the tests start (in process or spawned) fails a code path that asks for a second
// pooled connection while its transaction holds one (src/platform/db/pool-guard.ts).
process.env.DB_POOL_GUARD ??= 'throw';
