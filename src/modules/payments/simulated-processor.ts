import { createHash } from 'node:crypto';
import { prefixedId } from '../../platform/db/ids.js';
import { cardBrand, type CardInput } from './card.js';
import type { Authorization, CardDetails, PaymentMethodType, PaymentProcessor, ProcessorResult } from './payment-processor.js';

type Disposition = 'retry' | 'action_required' | 'terminal';

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

/**
 * Deterministic in-memory processor for test mode. Tokens encode the test card they stand for
 * (`tok_<last4>_<random>` maps back through a private table) so later charges and refunds
 * behave as the contract says, in any process.
 */
export class SimulatedProcessor implements PaymentProcessor {
  private static cardOf(number: string): TestCard {
    return TEST_CARDS[number] ?? { type: 'card' };
  }

  // Tokens carry the test-card behaviour, never the number: `<kind>_<flags>_<random>`.
  private static flags(card: TestCard): string {
    return `${card.type === 'hsa_fsa_card' ? 'h' : 'c'}${card.refundFails ? 'r' : ''}${card.renewal ? card.renewal.disposition[0] : ''}`;
  }

  inspect(card: CardInput): CardDetails {
    return { type: SimulatedProcessor.cardOf(card.number).type, brand: cardBrand(card.number), last4: card.number.slice(-4) };
  }

  async authorize(card: CardInput, _amount: number, _currency: string): Promise<ProcessorResult<Authorization>> {
    const test = SimulatedProcessor.cardOf(card.number);
    if (test.decline) return { ok: false, code: test.decline, message: DECLINE_MESSAGES[test.decline] ?? 'The card was declined.' };
    const flags = SimulatedProcessor.flags(test);
    return { ok: true, ...this.inspect(card), authorizationId: prefixedId(`auth_${flags}`), token: prefixedId(`tok_${flags}`) };
  }

  async verify(card: CardInput, _idempotencyKey: string): Promise<ProcessorResult<Authorization>> {
    return this.authorize(card, 0, 'usd');
  }

  async capture(authorizationId: string): Promise<ProcessorResult<{ captureId: string }>> {
    const flags = authorizationId.split('_')[1];
    return { ok: true, captureId: prefixedId(`ch_${flags}`) };
  }

  async void(): Promise<void> {}

  async refund(captureId: string, _amount: number): Promise<ProcessorResult<{ refundId: string }>> {
    const flags = captureId.split('_')[1] ?? '';
    if (flags.includes('r')) return { ok: false, code: 'refund_failed', message: 'The card issuer refused the refund.' };
    return { ok: true, refundId: prefixedId('re') };
  }

  async chargeToken(token: string, _amount: number, _currency: string, idempotencyKey?: string) {
    const flags = token.split('_')[1] ?? '';
    const renewal = Object.values(TEST_CARDS).find((c) => c.renewal && SimulatedProcessor.flags(c) === flags)?.renewal;
    if (renewal) return { ok: false as const, code: renewal.code, message: `The charge was refused: ${renewal.code}.`, disposition: renewal.disposition };
    // Idempotent in every process: the capture id is derived from the key, so a repeated call
    // answers the first one's capture instead of charging again.
    const captureId = idempotencyKey ? `ch_${flags}_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}` : prefixedId(`ch_${flags}`);
    return { ok: true as const, captureId };
  }
}
