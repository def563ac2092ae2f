import { DefaultLogger, type LogContext, type LoggerNamespace } from '@mikro-orm/core';
import { scrubSql } from '../logging.js';

let statements = 0;

/** SQL statements this process has sent, for `/metrics` and the benchmark. */
export function sqlStatementCount(): number {
  return statements;
}

/** Counts a statement sent outside the ORM (read models on the pg driver). */
export function countStatement(): void {
  statements++;
}

/**
 * A MikroORM logger that counts queries and forwards nothing else unless `SQL_DEBUG=true`; even
 * then a query is written with its values replaced by `?` (MikroORM inlines parameters).
 */
export class CountingLogger extends DefaultLogger {
  override log(namespace: LoggerNamespace, message: string, context?: LogContext): void {
    if (namespace === 'query') statements++;
    if (process.env.SQL_DEBUG === 'true') super.log(namespace, namespace === 'query' ? scrubSql(message) : message, context);
  }

  override isEnabled(namespace: LoggerNamespace): boolean {
    return namespace === 'query' || super.isEnabled(namespace);
  }
}
