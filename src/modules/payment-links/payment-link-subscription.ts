import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import type { LinkPayment } from './payment-link-payment.service.js';
import type { PaymentLink } from './payment-link.entity.js';
import type { PayPaymentLinkInput } from './payment-link.schemas.js';

/**
 * Pays a `payment_type: subscription` link, inside the link's locked transaction: the
 * subscriptions module replaces this one function (find or create the customer, store the
 * verified card, start the subscription and its first cycle, mark the link paid). Until then it
 * answers a clear 400 `invalid_state` and changes nothing.
 */
export async function paySubscriptionLink(_ctx: ServiceContext, link: PaymentLink, _input: PayPaymentLinkInput, _clientReferenceId: string | null): Promise<LinkPayment> {
  throw new DomainError('invalid_state', `Payment link ${link.id} is a subscription link; paying subscription links is not available yet, nothing was charged.`, {
    param: 'id',
    details: { payment_type: 'subscription' },
  });
}
