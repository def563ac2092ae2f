import { DefaultLogger, type LogContext, type LoggerNamespace } from '@mikro-orm/core';
import { scrubSql } from '../logging.js';
import { dbStatementDuration } from '../observability/metrics.js';

let statements = 0;

/** SQL statements this process has sent (the tests count them; `/metrics` has them as its statement histogram's `_count`). */
export function sqlStatementCount(): number {
  return statements;
}

/** The ORM's logger while `SQL_DEBUG=true`: it also writes the statements sent outside the ORM. */
let sqlDebugLog: CountingLogger | undefined;

/** The ORM's logger (MikroORM's `loggerFactory`): counts and, with `SQL_DEBUG=true`, writes every statement, the ORM's and ours. */
export function sqlLogger(options: ConstructorParameters<typeof DefaultLogger>[0]): CountingLogger {
  const logger = new CountingLogger(options);
  sqlDebugLog = logger.debug ? logger : undefined;
  return logger;
}

/** Counts a statement sent outside the ORM (read models and hot statements on the pg driver), and logs it like the ORM's own when `SQL_DEBUG=true`. */
export function countStatement(sql?: string): void {
  statements++;
  if (sql !== undefined) sqlDebugLog?.write(sql);
}

/** Sends a statement outside the ORM (`countStatement`) and records its duration. */
export async function timedStatement<T>(sql: string, send: () => Promise<T>): Promise<T> {
  countStatement(sql);
  const start = performance.now();
  try {
    return await send();
  } finally {
    dbStatementDuration.observe((performance.now() - start) / 1000);
  }
}

/**
 * A MikroORM logger that counts queries and forwards nothing else unless `SQL_DEBUG=true`; even
 * then a query is written with its values replaced by `?` (MikroORM inlines parameters).
 */
export class CountingLogger extends DefaultLogger {
  /** `SQL_DEBUG=true`, read once when the ORM starts (not from the environment per statement). */
  readonly debug = process.env.SQL_DEBUG === 'true';

  /** Writes a statement sent outside the ORM (values replaced by `?`). */
  write(sql: string): void {
    super.log('query', scrubSql(sql));
  }

  override log(namespace: LoggerNamespace, message: string, context?: LogContext): void {
    if (namespace === 'query') {
      statements++;
      // MikroORM times its statements in whole milliseconds.
      if (context?.took !== undefined) dbStatementDuration.observe(context.took / 1000);
    }
    if (this.debug) super.log(namespace, namespace === 'query' ? scrubSql(message) : message, context);
  }

  override isEnabled(namespace: LoggerNamespace): boolean {
    return namespace === 'query' || super.isEnabled(namespace);
  }
}
