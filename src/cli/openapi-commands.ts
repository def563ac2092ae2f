import 'reflect-metadata';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import Fastify from 'fastify';
import { restRoutes } from '../modules/index.js';
import { registerOpenApi } from '../platform/rest/openapi.js';
import { registerRoutes } from '../platform/rest/routes.js';

/** Where the generated REST client types live (committed; `npm run openapi:check` fails when stale). */
export const OPENAPI_TYPES_FILE = 'test/generated/api-v2.d.ts';

/** The OpenAPI document `GET /api/v2/openapi.json` serves, built from the route tables without a database. */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const http = Fastify({ logger: false });
  // As in the service: route schemas only document (the services validate), so nothing is compiled.
  http.setValidatorCompiler(() => (data: unknown) => ({ value: data }));
  http.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await registerOpenApi(http, 'http://localhost:4000');
  registerRoutes(http, restRoutes);
  await http.ready();
  try {
    return http.swagger() as unknown as Record<string, unknown>;
  } finally {
    await http.close();
  }
}

/** The TypeScript `paths`/`components` types openapi-typescript (default options) generates from `doc`, as its CLI writes them. */
export async function openApiTypes(doc: Record<string, unknown>): Promise<string> {
  // A devDependency, loaded only by this command (the service and the other commands never need it).
  const { default: openapiTS, astToString, COMMENT_HEADER } = await import('openapi-typescript');
  // The document is the service's own (servers included); only its types matter here.
  const ast = await openapiTS({ ...doc, servers: [] } as unknown as Parameters<typeof openapiTS>[0]);
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

/** Writes the REST client types from the route tables. */
export async function openApiTypesEmit(): Promise<number> {
  await mkdir(dirname(OPENAPI_TYPES_FILE), { recursive: true });
  await writeFile(OPENAPI_TYPES_FILE, await openApiTypes(await openApiDocument()));
  process.stdout.write(`wrote ${OPENAPI_TYPES_FILE}\n`);
  return 0;
}

/** Fails when the committed client types differ from what the OpenAPI document generates. */
export async function openApiTypesCheck(): Promise<number> {
  const [committed, built] = await Promise.all([
    readFile(OPENAPI_TYPES_FILE, 'utf8').catch(() => ''),
    openApiDocument().then(openApiTypes),
  ]);
  if (committed === built) {
    process.stdout.write(`${OPENAPI_TYPES_FILE} is up to date\n`);
    return 0;
  }
  process.stderr.write(`${OPENAPI_TYPES_FILE} is stale: run \`npm run openapi:types\` and commit it.\n`);
  return 1;
}
