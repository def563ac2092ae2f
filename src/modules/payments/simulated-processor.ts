import { prefixedId } from '../../platform/db/ids.js';
import { DomainError } from '../../platform/errors.js';
import { cardBrand, cardSchema, type CardInput } from './card.js';
import type { PaymentMethodInput } from './payment-method-input.js';
import type {
  AuthorizeRequest,
  AuthorizeResult,
  CardDetails,
  ChargeResult,
  Disposition,
  HoldResult,
  PaymentMethodType,
  PaymentProcessor,
  ProcessorRecord,
  ProcessorResult,
  RefundResult,
  SplitPayment,
} from './payment-processor.js';

interface TestCard {
  type: PaymentMethodType;
  decline?: string;
  renewal?: { code: string; disposition: Disposition };
  refundFails?: boolean;
}

/** The contract's test cards. Any other Luhn-valid number is a regular card that succeeds. */
export const TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { type: 'card' },
  '5555555555554444': { type: 'card' },
  '4111110000000013': { type: 'hsa_fsa_card' },
  '5111110000000010': { type: 'hsa_fsa_card' },
  '4000000000000002': { type: 'card', decline: 'card_declined' },
  '4111110000000021': { type: 'hsa_fsa_card', decline: 'insufficient_funds' },
  '4000000000000341': { type: 'card', renewal: { code: 'insufficient_funds', disposition: 'retry' } },
  '4000000000000069': { type: 'card', renewal: { code: 'expired_card', disposition: 'action_required' } },
  '4111110000000039': { type: 'hsa_fsa_card', renewal: { code: 'stolen_card', disposition: 'terminal' } },
  '4000000000005126': { type: 'card', refundFails: true },
  '4111110000000047': { type: 'hsa_fsa_card', refundFails: true },
};

const DECLINE_MESSAGES: Record<string, string> = {
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds.',
};

/** Runs one SQL statement on its own (autocommit: never in a caller's transaction) and returns its rows. */
export type SqlRunner = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * Deterministic processor for test mode. Tokens encode the test card they stand for
 * (`tok_<flags>_<random>`, never the number) so later charges and refunds behave as the contract
 * says, in any process. Like a real processor it keeps its own books: every call is one row of
 * `processor_ledger`, keyed by the caller's idempotency key (a repeated key answers the first
 * result), so tests can compare what the processor did with what the service recorded.
 */
export class SimulatedProcessor implements PaymentProcessor {
  constructor(private readonly sql: SqlRunner) {}

  private static cardOf(number: string): TestCard {
    return TEST_CARDS[number] ?? { type: 'card' };
  }

  // Tokens carry the test-card behaviour, never the number: `<kind>_<flags>_<random>`.
  private static flags(card: TestCard): string {
    return `${card.type === 'hsa_fsa_card' ? 'h' : 'c'}${card.refundFails ? 'r' : ''}${card.renewal ? card.renewal.disposition[0] : ''}`;
  }

  /**
   * Records the call under `key` (once) and answers its first result: `result`, or `refusal` when
   * the ledger already holds a row matching `refusedIf` (a condition on `processor_ledger l`),
   * decided in the same statement as the record.
   */
  private async once<T extends { ok: boolean }>(
    key: string,
    operation: ProcessorRecord['operation'],
    target: string | null,
    amount: number,
    result: T,
    reference: (r: T) => string | null,
    refusal?: { result: T; refusedIf: string; params: unknown[] },
  ): Promise<T> {
    // The record commits without waiting for its WAL to reach the disk (`synchronous_commit` off
    // for this statement's own transaction: the runner is autocommit). Nothing of ours can outlive
    // it: whatever the service commits after this call returns comes later in the WAL, and its
    // flush takes this record with it. A database crash can lose only a record nothing of ours
    // followed yet: to the service that is a call the processor never received, which it repeats
    // under the same key. It spares a renewal run one disk flush per charge.
    const inserted = await this.sql(
      `insert into processor_ledger (key, operation, target, amount, ok, reference, result, created_at)
       select ?::text, ?::text, ?::text, ?::bigint, case when r then ?::boolean else ?::boolean end, case when r then ?::text else ?::text end,
              case when r then ?::jsonb else ?::jsonb end, now()
       from (select ${refusal ? `exists (select 1 from processor_ledger l where ${refusal.refusedIf})` : 'false'} as r,
                    set_config('synchronous_commit', 'off', true) as async_commit) x
       on conflict (key) do nothing returning result`,
      [
        key,
        operation,
        target,
        amount,
        refusal?.result.ok ?? result.ok,
        result.ok,
        refusal ? reference(refusal.result) : null,
        reference(result),
        JSON.stringify(refusal?.result ?? result),
        JSON.stringify(result),
        ...(refusal?.params ?? []),
      ],
    );
    if (inserted.length) return inserted[0].result as T;
    const [first] = await this.sql(`select operation, result from processor_ledger where key = ?`, [key]);
    if (first.operation !== operation)
      throw new Error(`processor idempotency key ${key} was used for ${String(first.operation)}, not ${operation}`);
    return first.result as T;
  }

  /**
   * The test card a payment method stands for: a card object, or Adyen Web's payment method data
   * with Adyen's unencrypted test values (`encryptedCardNumber: "test_4242424242424242"`, …), so
   * a page built on Adyen Web pays in test mode with the contract's test cards.
   */
  static cardOfMethod(method: PaymentMethodInput): CardInput {
    if (method.kind === 'card') return method.card;
    const d = method.data;
    const plain = (v: string | undefined) => (v?.startsWith('test_') ? v.slice(5) : undefined);
    const parsed = cardSchema.safeParse({
      number: plain(d.encryptedCardNumber),
      exp_month: Number(plain(d.encryptedExpiryMonth)),
      exp_year: Number(plain(d.encryptedExpiryYear)),
      cvc: plain(d.encryptedSecurityCode) ?? '000',
    });
    if (!parsed.success) {
      throw new DomainError(
        'invalid_payment_method',
        'Test mode reads payment_method_data with Adyen\'s unencrypted test values (encryptedCardNumber "test_4242424242424242", encryptedExpiryMonth "test_03", encryptedExpiryYear "test_2030", encryptedSecurityCode "test_737"): use a test card.',
      );
    }
    return parsed.data;
  }

  inspect(method: PaymentMethodInput): CardDetails {
    const card = SimulatedProcessor.cardOfMethod(method);
    return {
      type: SimulatedProcessor.cardOf(card.number).type,
      brand: cardBrand(card.number),
      last4: card.number.slice(-4),
    };
  }

  private hold(method: PaymentMethodInput, amount: number): AuthorizeResult {
    const card = SimulatedProcessor.cardOfMethod(method);
    const test = SimulatedProcessor.cardOf(card.number);
    if (test.decline)
      return { ok: false, code: test.decline, message: DECLINE_MESSAGES[test.decline] ?? 'The card was declined.' };
    const flags = SimulatedProcessor.flags(test);
    return {
      ok: true,
      ...this.inspect(method),
      amount,
      expiry: { month: card.exp_month, year: card.exp_year },
      authorizationId: prefixedId(`auth_${flags}`),
      token: prefixedId(`tok_${flags}`),
    };
  }

  authorize(request: AuthorizeRequest): Promise<AuthorizeResult> {
    return this.once(
      request.idempotencyKey,
      'authorize',
      null,
      request.amount,
      this.hold(request.method, request.amount),
      (r) => (r.ok ? r.authorizationId : null),
    );
  }

  /** The test cards never ask the shopper to act, so there is nothing to continue. */
  details(): Promise<AuthorizeResult> {
    return Promise.resolve({
      ok: false,
      code: 'invalid_request',
      message: 'No payment of this checkout is waiting for the shopper (test cards never ask for 3-D Secure).',
    });
  }

  /** Test mode holds each card on its own: no processor-side grouping. */
  openSplit(): Promise<ProcessorResult<{ split: SplitPayment | null }>> {
    return Promise.resolve({ ok: true, split: null });
  }

  cancelSplit(): Promise<void> {
    return Promise.resolve();
  }

  verify(method: PaymentMethodInput, _shopperReference: string, key: string): Promise<AuthorizeResult> {
    return this.once(key, 'verify', null, 0, this.hold(method, 0), (r) => (r.ok ? r.token : null));
  }

  /** Captures a hold; one already voided (released) can no longer be captured, as at a card network. */
  capture(authorizationId: string, key: string): Promise<ProcessorResult<{ captureId: string }>> {
    const flags = authorizationId.split('_')[1];
    const captured: ProcessorResult<{ captureId: string }> = { ok: true, captureId: prefixedId(`ch_${flags}`) };
    const voided: ProcessorResult<{ captureId: string }> = {
      ok: false,
      code: 'authorization_voided',
      message: 'The authorisation was cancelled: nothing is left to capture.',
    };
    return this.once<ProcessorResult<{ captureId: string }>>(
      key,
      'capture',
      authorizationId,
      0,
      captured,
      (r) => (r.ok ? r.captureId : null),
      {
        result: voided,
        refusedIf: `l.target = ? and l.operation = 'void'`,
        params: [authorizationId],
      },
    );
  }

  async void(authorizationId: string, key: string): Promise<void> {
    await this.once(key, 'void', authorizationId, 0, { ok: true }, () => null);
  }

  refund(captureId: string, amount: number, key: string): Promise<RefundResult> {
    const flags = captureId.split('_')[1] ?? '';
    const result: RefundResult = flags.includes('r')
      ? { ok: false, code: 'refund_failed', message: 'The card issuer refused the refund.' }
      : { ok: true, refundId: prefixedId('re') };
    return this.once(key, 'refund', captureId, amount, result, (r) => (r.ok ? r.refundId : null));
  }

  chargeToken(token: string, amount: number, _currency: string, key: string): Promise<ChargeResult> {
    const flags = token.split('_')[1] ?? '';
    const refused = SimulatedProcessor.renewalRefusal(flags);
    const result: ChargeResult = refused ?? { ok: true, captureId: prefixedId(`ch_${flags}`) };
    return this.once(key, 'charge', token, amount, result, (r) => (r.ok ? r.captureId : null));
  }

  holdToken(token: string, amount: number, _currency: string, key: string): Promise<HoldResult> {
    const flags = token.split('_')[1] ?? '';
    const refused = SimulatedProcessor.renewalRefusal(flags);
    const result: HoldResult = refused ?? { ok: true, authorizationId: prefixedId(`auth_${flags}`) };
    return this.once(key, 'authorize', token, amount, result, (r) => (r.ok ? r.authorizationId : null));
  }

  /** How a later charge of a stored test card is refused (its renewal behaviour), or null: it pays. */
  private static renewalRefusal(
    flags: string,
  ): { ok: false; code: string; message: string; disposition: Disposition } | null {
    const renewal = Object.values(TEST_CARDS).find((c) => c.renewal && SimulatedProcessor.flags(c) === flags)?.renewal;
    return renewal
      ? {
          ok: false,
          code: renewal.code,
          message: `The charge was refused: ${renewal.code}.`,
          disposition: renewal.disposition,
        }
      : null;
  }

  /** Test mode has no card network: a dispute is accepted at once. */
  acceptDispute(disputePspReference: string, key: string): Promise<ProcessorResult<object>> {
    return this.once(key, 'accept_dispute', disputePspReference, 0, { ok: true }, () => null);
  }

  /** Test mode has no card network: a dispute is defended at once (the reason code is kept in the ledger's result). */
  defendDispute(disputePspReference: string, defenseReasonCode: string, key: string): Promise<ProcessorResult<object>> {
    return this.once(key, 'defend_dispute', disputePspReference, 0, { ok: true, defenseReasonCode }, () => null);
  }

  async lookup(key: string): Promise<ProcessorRecord | null> {
    const [row] = await this.sql(`select operation, ok, reference from processor_ledger where key = ?`, [key]);
    return row
      ? {
          operation: row.operation as ProcessorRecord['operation'],
          ok: Boolean(row.ok),
          reference: (row.reference as string | null) ?? null,
        }
      : null;
  }
}
