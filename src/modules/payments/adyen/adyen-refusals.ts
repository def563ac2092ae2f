import type { Disposition } from '../payment-processor.js';

/**
 * Adyen's refusal reason codes (`refusalReasonCode`, docs "Refusal reasons") as the spec's decline
 * codes, and what each means for retrying a merchant-initiated charge (a renewal). Data, not logic:
 * a code missing here is a generic `card_declined` that may be retried.
 */
const REFUSALS: Record<string, { code: string; disposition: Disposition }> = {
  '2': { code: 'card_declined', disposition: 'retry' },
  '3': { code: 'card_declined', disposition: 'action_required' }, // Referral
  '4': { code: 'processing_error', disposition: 'retry' }, // Acquirer Error
  '5': { code: 'stolen_card', disposition: 'terminal' }, // Blocked Card
  '6': { code: 'expired_card', disposition: 'action_required' },
  '7': { code: 'invalid_amount', disposition: 'terminal' },
  '8': { code: 'incorrect_number', disposition: 'action_required' },
  '9': { code: 'issuer_not_available', disposition: 'retry' },
  '10': { code: 'card_not_supported', disposition: 'action_required' },
  '11': { code: 'authentication_failed', disposition: 'action_required' }, // 3D Not Authenticated
  '12': { code: 'insufficient_funds', disposition: 'retry' }, // Not enough balance
  '14': { code: 'fraudulent', disposition: 'terminal' }, // Acquirer Fraud
  '15': { code: 'card_declined', disposition: 'retry' }, // Cancelled
  '16': { code: 'card_declined', disposition: 'action_required' }, // Shopper Cancelled
  '20': { code: 'fraudulent', disposition: 'terminal' }, // FRAUD
  '22': { code: 'fraudulent', disposition: 'terminal' }, // FRAUD-CANCELLED
  '23': { code: 'transaction_not_allowed', disposition: 'terminal' },
  '24': { code: 'incorrect_cvc', disposition: 'action_required' }, // CVC Declined
  '25': { code: 'restricted_card', disposition: 'terminal' },
  '26': { code: 'revocation_of_authorization', disposition: 'terminal' },
  '27': { code: 'card_declined', disposition: 'retry' }, // Declined Non Generic
  '28': { code: 'withdrawal_count_limit_exceeded', disposition: 'retry' },
  '29': { code: 'withdrawal_count_limit_exceeded', disposition: 'retry' },
  '31': { code: 'fraudulent', disposition: 'terminal' }, // Issuer Suspected Fraud
  '32': { code: 'card_declined', disposition: 'action_required' }, // AVS Declined
  '38': { code: 'authentication_required', disposition: 'action_required' },
  '42': { code: 'authentication_failed', disposition: 'action_required' },
  '46': { code: 'card_declined', disposition: 'terminal' }, // blocked to prevent excessive retry fees
};

export interface Refusal {
  code: string;
  message: string;
  disposition: Disposition;
  /** Adyen's own refusal reason code, kept for the merchant (`details.refusal_reason_code`). */
  processorCode: string | null;
}

/** The spec's view of an Adyen refusal. */
export function refusalOf(reasonCode: string | undefined, reason: string | undefined): Refusal {
  const known = reasonCode ? REFUSALS[reasonCode] : undefined;
  return {
    code: known?.code ?? 'card_declined',
    disposition: known?.disposition ?? 'retry',
    message: `${reason ?? 'Refused'}.`,
    processorCode: reasonCode ?? null,
  };
}
