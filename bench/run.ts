/**
 * `npm run bench`: starts the built service (embedded PostgreSQL in a temporary DATA_DIR),
 * seeds products, and measures product get and list through REST and GraphQL with autocannon:
 * requests/s, p50/p99 latency and SQL statements per request (from the service's /metrics).
 */
import autocannon from 'autocannon';
import { formatTable, startService } from './common.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SEED = 200;

async function sqlCount(base: string): Promise<number> {
  return ((await (await fetch(`${base}/metrics`)).json()) as { sql_statements_total: number }).sql_statements_total;
}

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

async function main(): Promise<void> {
  // BENCH_DATABASE_URL measures against another PostgreSQL; by default a fresh embedded one.
  const service = await startService(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {});
  const { base, key } = service;
  try {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let lastId = 0;
    for (let i = 0; i < SEED; i++) {
      const res = await fetch(`${base}/api/v2/products`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: i % 2 ? `Digital thermometer ${i}` : `Sunscreen SPF 50 ${i}`, price: 1000 + i, currency: 'USD', images: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png'] }),
      });
      lastId = ((await res.json()) as { id: number }).id;
    }
    const gid = Buffer.from(`Product:${lastId}`).toString('base64url');
    const fields = 'id productId name price currency status eligibility { hsaFsaEligible message } images { url isPrimary }';
    const cases: Case[] = [
      { name: 'REST   GET /api/v2/products/{id}', method: 'GET', path: `/api/v2/products/${lastId}` },
      { name: 'REST   GET /api/v2/products?limit=20', method: 'GET', path: '/api/v2/products?limit=20' },
      { name: 'GraphQL product(id)', method: 'POST', path: '/graphql', body: JSON.stringify({ query: `{ product(id: "${gid}") { ${fields} } }` }) },
      { name: 'GraphQL products(first: 20)', method: 'POST', path: '/graphql', body: JSON.stringify({ query: `{ products(first: 20) { edges { cursor node { ${fields} } } pageInfo { hasNextPage endCursor } } }` }) },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      await autocannon({ url: base + c.path, method: c.method, headers, body: c.body, connections: CONNECTIONS, duration: 2 }); // warm-up
      const before = await sqlCount(base);
      const r = await autocannon({ url: base + c.path, method: c.method, headers, body: c.body, connections: CONNECTIONS, duration: DURATION });
      const statements = (await sqlCount(base)) - before;
      const ok = r['2xx'];
      rows.push([c.name, r.requests.average.toFixed(0), `${r.latency.p50}`, `${r.latency.p99}`, (statements / Math.max(ok, 1)).toFixed(2), `${r.non2xx + r.errors}`]);
    }
    const header = ['case', 'req/s', 'p50 ms', 'p99 ms', 'SQL/req', 'errors'];
    process.stdout.write(`\n${CONNECTIONS} connections, ${DURATION} s per case, ${SEED} products, 2 images each\n\n${formatTable(header, rows)}\n\n`);
  } finally {
    await service.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
