import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { activeTraceIds } from './observability/spans.js';
import { pino, stdSerializers, type Logger, type LoggerOptions } from 'pino';

/**
 * What never reaches a log line: secrets, card data and customer PII, by key at any depth up to
 * four (pino `redact`), and literal values inside SQL and error messages (`scrubSql`,
 * `scrubText`). The query-logging policy: SQL is logged with its values replaced by `?`, never
 * with parameters (`CountingLogger`), and an error's SQL, parameters and PostgreSQL `detail`
 * (which quotes the offending row) are dropped.
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'card',
  'hsa_fsa_card',
  'number',
  'cvc',
  'exp_month',
  'exp_year',
  'token',
  'access_token',
  'processorToken',
  'processor_token',
  'password',
  'secret',
  'previous_secret',
  'webhook_secret',
  'webhookSecret',
  'api_key',
  'apiKey',
  'test_api_key',
  'live_api_key',
  // A merchant's processor keys (processor set, the Adyen adapter) and the key that seals them.
  'hmac_key',
  'hmacKey',
  'hmacSignature',
  'secrets_key',
  'secretsKey',
  'SECRETS_KEY',
  'credentials',
  'email',
  'phone',
  'x-api-key',
];

/** Redact paths: each key at the top level and under up to three levels of objects. */
export const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const k = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const join = (prefix: string) => (k.startsWith('[') ? `${prefix}${k}` : `${prefix}.${k}`);
  return [k.startsWith('[') ? `*${k}` : k, join('*'), join('*.*'), join('*.*.*')];
});

/**
 * Query-string parameters whose values never reach a log line: personal data (`email`,
 * `customer_email`, `phone`…), capabilities (a hosted page's `token`) and the signatures of signed
 * links (a receipt URL is valid an hour: its `signature` would let a log reader open it).
 */
const REDACTED_QUERY_KEYS = new Set([
  ...SECRET_KEYS.map((k) => k.toLowerCase()),
  'customer_email',
  'customer_phone',
  'first_name',
  'last_name',
  'name',
  'signature',
  'sig',
  'x-amz-signature',
]);

/** A request URL as logged: the path, and the query with the values of personal or secret keys replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url.slice(q + 1).replace(/(^|&)([^=&]*)=([^&#]*)/g, (whole, sep: string, rawKey: string) => {
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      /* keep the raw key */
    }
    return REDACTED_QUERY_KEYS.has(key.toLowerCase()) ? `${sep}${rawKey}=[redacted]` : whole;
  });
  return `${url.slice(0, q)}?${query}`;
}

/** SQL with every string and number literal replaced by `?` (identifiers and keywords stay). */
export function scrubSql(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, '?').replace(/(?<![\w$.])-?\d+(?:\.\d+)?(?![\w$])/g, '?');
}

/** Free text (an error message or stack) without quoted values, tokens, card numbers, keys or emails. */
export function scrubText(text: string): string {
  return text
    .replace(/'(?:[^']|'')*'/g, "'?'")
    .replace(/\b(glm_(?:test|live)|whsec|tok|sk|pk)_[0-9A-Za-z_]+/g, '$1_[redacted]')
    .replace(/\b\d(?:[ -]?\d){12,18}\b/g, '[redacted]')
    .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '[redacted]');
}

/** What drivers hang on their errors that a log line must not carry: SQL values, parameters, row details, and whole client objects (pg's `client`, sockets). */
const UNLOGGED_ERROR_FIELDS = [
  'sql',
  'sqlMessage',
  'query',
  'parameters',
  'params',
  'bindings',
  'detail',
  'where',
  'internalQuery',
  'hint',
  'client',
  'connection',
  'socket',
];

/** pino's error serializer, then scrubbed: no SQL values, parameters, row details or driver objects. */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const out = stdSerializers.err(err) as unknown as Record<string, unknown>;
  for (const key of UNLOGGED_ERROR_FIELDS) delete out[key];
  if (typeof out.message === 'string') out.message = scrubText(out.message);
  if (typeof out.stack === 'string') out.stack = scrubText(out.stack);
  return out;
}

const REQUEST_ID = Symbol('reqId');

/**
 * Fastify's per-request logger: the request id rides on the child and is written into each line
 * by `loggerOptions`' mixin, rather than bound as pino bindings (pino runs every binding through
 * the redaction's wildcard paths, per request, even when nothing is logged).
 */
export const requestLogger: FastifyInstance['childLoggerFactory'] = function (logger, bindings, opts) {
  if (Object.keys(opts).length) return logger.child(bindings, opts);
  const child = logger.child({}) as FastifyBaseLogger & { [REQUEST_ID]?: unknown };
  child[REQUEST_ID] = bindings.reqId;
  return child;
};

/** The service's pino options at `level` (Fastify's `logger`). */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    mixin: (_object, _level, logger) => {
      const reqId = (logger as { [REQUEST_ID]?: unknown })[REQUEST_ID];
      // When tracing, every line written inside a span names its trace and span.
      const trace = activeTraceIds();
      if (trace)
        return reqId === undefined
          ? { trace_id: trace.traceId, span_id: trace.spanId }
          : { reqId, trace_id: trace.traceId, span_id: trace.spanId };
      return reqId === undefined ? {} : { reqId };
    },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', ...REDACT_PATHS], censor: '[redacted]' },
    serializers: {
      err: serializeError,
      error: serializeError,
      // Query strings carry customer emails, hosted-page tokens and receipt signatures: never written whole.
      req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        hostname: req.hostname,
        remoteAddress: req.ip,
      }),
    },
  };
}

/** The process's one logger: pino with `loggerOptions` (the redaction), one JSON line per entry on stdout. Fastify's, and the sink of what dependencies would print. */
export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}

/** A line a dependency would have printed itself, as a log message: its SQL values and quoted values, keys, card numbers and emails replaced. */
function dependencyText(message: unknown): string {
  const sql = (message as { sql?: unknown } | null)?.sql;
  const text = typeof message === 'string' ? message : typeof sql === 'string' ? sql : `(${typeof message})`;
  return scrubText(scrubSql(text));
}

/**
 * knex's `log` option (MikroORM `driverOptions.log`): what knex would print with `console.log`
 * itself (a pooled connection found broken, `Connection Error: ` and the failed statement with its
 * values; deprecations) goes to `log` instead, scrubbed.
 */
export function knexLogOptions(log: Pick<Logger, 'warn' | 'error' | 'debug'>) {
  return {
    warn: (message: unknown) => log.warn({ source: 'knex' }, dependencyText(message)),
    error: (message: unknown) => log.error({ source: 'knex' }, dependencyText(message)),
    deprecate: (message: unknown) => log.warn({ source: 'knex' }, dependencyText(message)),
    debug: (message: unknown) => log.debug({ source: 'knex' }, dependencyText(message)),
  };
}

/** Node's process warnings (printed to stderr by default) as log entries instead. */
export function logProcessWarnings(log: Pick<Logger, 'warn'>): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => log.warn({ err: warning }, 'process warning'));
}
