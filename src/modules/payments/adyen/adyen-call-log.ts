import type { SqlRunner } from '../simulated-processor.js';
import type { ProcessorRecord } from '../payment-processor.js';

/** One call to Adyen as Adyen answered it (or as its notification told us later). */
export interface AdyenCall {
  key: string;
  operation: ProcessorRecord['operation'];
  ok: boolean;
  /** The pspReference the call created (the payment's for authorisations, the modification's otherwise). */
  pspReference: string | null;
  /** The payment's pspReference a modification acted on. */
  target: string | null;
  amount: number;
  currency: string;
  result: unknown;
}

const HOLDS = new Set<string>(['authorize', 'details', 'charge']);
// What an authorisation held never changes: this process remembers the ones it recorded, so the
// capture that follows in the same flow needs no read (bounded; a miss reads processor_calls).
const held = new Map<string, { amount: number; currency: string }>();
function remember(id: string, value: { amount: number; currency: string }): void {
  if (held.size >= 10_000) held.clear();
  held.set(id, value);
}

/**
 * What Adyen told us, per idempotency key (table `processor_calls`): the answer to each call, and
 * the AUTHORISATION notifications of calls whose answer never reached us. `lookup` (reconciliation)
 * reads it; captures and refunds read the currency and amount of the payment they act on.
 * One autocommit statement per write: never inside a transaction (see PaymentProcessor).
 */
export class AdyenCallLog {
  constructor(
    private readonly sql: SqlRunner,
    private readonly merchantId: string,
  ) {}

  async record(call: AdyenCall): Promise<void> {
    if (call.ok && call.pspReference && HOLDS.has(call.operation))
      remember(`${this.merchantId}:${call.pspReference}`, { amount: call.amount, currency: call.currency });
    await this.sql(
      `insert into processor_calls (key, merchant_id, operation, ok, psp_reference, target, amount, currency, result, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now())
       on conflict (key) do update set ok = excluded.ok, psp_reference = excluded.psp_reference, result = excluded.result, updated_at = now()`,
      [
        call.key,
        this.merchantId,
        call.operation,
        call.ok,
        call.pspReference,
        call.target,
        call.amount,
        call.currency,
        JSON.stringify(call.result),
      ],
    );
  }

  /**
   * What the call under `key` did. A capture's reference is the payment's pspReference (its
   * `target`), as `capture` answers it and `refund` takes it, not the capture modification's own.
   */
  async lookup(key: string): Promise<ProcessorRecord | null> {
    const [row] = await this.sql(`select operation, ok, psp_reference, target from processor_calls where key = ?`, [
      key,
    ]);
    if (!row) return null;
    const operation = row.operation as ProcessorRecord['operation'];
    const reference = (operation === 'capture' ? row.target : row.psp_reference) as string | null;
    return { operation, ok: Boolean(row.ok), reference: reference ?? null };
  }

  /** The amount and currency an authorisation held (captures and refunds must name them). */
  async payment(pspReference: string): Promise<{ amount: number; currency: string } | null> {
    const known = held.get(`${this.merchantId}:${pspReference}`);
    if (known) return known;
    const [row] = await this.sql(
      `select amount, currency from processor_calls where psp_reference = ? and merchant_id = ? and operation in ('authorize', 'details', 'charge') and ok order by created_at limit 1`,
      [pspReference, this.merchantId],
    );
    return row ? { amount: Number(row.amount), currency: String(row.currency) } : null;
  }
}
