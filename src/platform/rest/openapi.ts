import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

type OpenApiDocument = { paths?: unknown; components?: { schemas?: Record<string, unknown> } } & Record<
  string,
  unknown
>;

const REF = '#/components/schemas/';

/** The component names `value` references. */
function refsOf(value: unknown, out = new Set<string>()): Set<string> {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...(v as unknown[]));
    else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (k === '$ref' && typeof child === 'string' && child.startsWith(REF)) out.add(child.slice(REF.length));
        else stack.push(child);
      }
    }
  }
  return out;
}

/**
 * Every zod component is emitted twice, as read (`XInput`, defaults optional) and as written
 * (`X`, defaults present). Keep only the variants operations use, under their plain names, so a
 * generated client has one `CreateProductRequest` type and it is the request's (defaults optional).
 */
function tidyComponents(doc: OpenApiDocument): OpenApiDocument {
  const schemas = doc.components?.schemas;
  if (!schemas) return doc;
  const used = refsOf(doc.paths);
  for (const pending = [...used]; pending.length;) {
    for (const name of refsOf(schemas[pending.pop()!])) {
      if (!used.has(name)) {
        used.add(name);
        pending.push(name);
      }
    }
  }
  const rename = new Map<string, string>();
  for (const name of used)
    if (name.endsWith('Input') && !used.has(name.slice(0, -5))) rename.set(name, name.slice(0, -5));
  const kept: Record<string, unknown> = {};
  for (const name of [...used].sort()) kept[rename.get(name) ?? name] = schemas[name];
  const text = JSON.stringify(
    { ...doc, components: { ...doc.components, schemas: kept } },
    (key: string, value: unknown) =>
      key === '$ref' && typeof value === 'string' && rename.has(value.slice(REF.length))
        ? REF + rename.get(value.slice(REF.length))
        : value,
  );
  return JSON.parse(text) as OpenApiDocument;
}

/** A copy of `schema` without `default` keywords at any depth, each stated in its description instead. */
function withoutDefaults(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDefaults);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) if (k !== 'default') out[k] = withoutDefaults(v);
  if ('default' in schema) {
    const said = `Default: ${JSON.stringify(schema.default)}.`;
    out.description = typeof out.description === 'string' ? `${out.description} ${said}` : said;
  }
  return out;
}

/** Whether a request body schema requires anything (its own `required`, or a referenced component's). */
function requiresSomething(schema: unknown, schemas: Record<string, unknown>): boolean {
  const s = schema as
    { $ref?: string; required?: string[]; anyOf?: unknown[]; oneOf?: unknown[]; allOf?: unknown[] } | undefined;
  if (!s || typeof s !== 'object') return false;
  if (s.$ref?.startsWith(REF)) return requiresSomething(schemas[s.$ref.slice(REF.length)], schemas);
  if (Array.isArray(s.required) && s.required.length > 0) return true;
  if (s.allOf?.some((x) => requiresSomething(x, schemas))) return true;
  const alternatives = s.anyOf ?? s.oneOf;
  return (
    Array.isArray(alternatives) && alternatives.length > 0 && alternatives.every((x) => requiresSomething(x, schemas))
  );
}

/**
 * What a generated client needs from the request side: a body whose fields are all optional is
 * itself optional (`requestBody.required: false`; the service accepts none), and no request
 * schema states a `default` (openapi-typescript's default options make such a field required in
 * the request type): the default is said in the description and applied by the service.
 */
function requestSide(doc: OpenApiDocument): OpenApiDocument {
  const schemas = doc.components?.schemas ?? {};
  const paths = (doc.paths ?? {}) as Record<
    string,
    Record<
      string,
      { requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> }; parameters?: unknown[] }
    >
  >;
  const requestRefs = new Set<string>();
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops)) {
      if (op.parameters) {
        for (const name of refsOf(op.parameters)) requestRefs.add(name);
        op.parameters = withoutDefaults(op.parameters) as unknown[];
      }
      if (!op.requestBody) continue;
      for (const name of refsOf(op.requestBody)) requestRefs.add(name);
      const bodySchema = op.requestBody.content?.['application/json']?.schema;
      op.requestBody = withoutDefaults(op.requestBody) as typeof op.requestBody;
      op.requestBody.required = requiresSomething(bodySchema, schemas);
    }
  }
  for (const pending = [...requestRefs]; pending.length;) {
    for (const name of refsOf(schemas[pending.pop()!])) {
      if (!requestRefs.has(name)) {
        requestRefs.add(name);
        pending.push(name);
      }
    }
  }
  for (const name of requestRefs) if (schemas[name]) schemas[name] = withoutDefaults(schemas[name]);
  return doc;
}

/**
 * OpenAPI 3.1 generated by @fastify/swagger from the routes' own zod definitions (the same ones
 * the services validate with), served at GET /api/v2/openapi.json.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Health-Spending Commerce API',
        version: '2.0.0',
        description:
          'Catalog with HSA/FSA eligibility, checkout, orders, refunds, payment links, subscriptions and webhooks. Errors: `{ "error": { "code", "message", "param?", "details?" } }`.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'glm_test_… or glm_live_… API key' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (input) =>
      requestSide(tidyComponents(jsonSchemaTransformObject(input) as OpenApiDocument)) as ReturnType<
        typeof jsonSchemaTransformObject
      >,
  });
  app.get('/api/v2/openapi.json', { config: { public: true, withoutDatabase: true }, schema: { hide: true } }, () =>
    app.swagger(),
  );
}
