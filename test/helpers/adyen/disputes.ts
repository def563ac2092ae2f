import { adyenDate, newPspReference, type Amount, type Answer, type CheckoutBook } from './checkout.js';
import type { NotificationItem, Notifier } from './notifications.js';

export type DisputeEventCode =
  'NOTIFICATION_OF_CHARGEBACK' | 'CHARGEBACK' | 'CHARGEBACK_REVERSED' | 'SECOND_CHARGEBACK';

/** `disputeStatus` as Adyen's dispute webhooks carry it. */
export type DisputeStatus =
  'Unresponded' | 'Responded' | 'Expired' | 'Undefended' | 'Accepted' | 'Pending' | 'Lost' | 'Won';

export interface StandInDispute {
  /** The dispute's own pspReference: every event of one dispute carries it. */
  pspReference: string;
  paymentPspReference: string;
  amount: Amount;
  reasonCode: string;
  reason: string;
  defensePeriodEndsAt: string;
  status: DisputeStatus;
  events: DisputeEventCode[];
  defenseReasonCode?: string;
  documents: { defenseDocumentTypeCode: string; contentType: string }[];
}

export interface DisputeOptions {
  amount?: Amount;
  /** The issuer's words (the item's `reason`). */
  reason?: string;
  /** The scheme's reason code (`additionalData.chargebackReasonCode`), default Visa 10.4 (fraud). */
  reasonCode?: string;
  /** When the defence period ends (`additionalData.defensePeriodEndsAt`), default in 20 days. */
  defenseDueDate?: Date | string;
  /** Overrides the `disputeStatus` the event would carry. */
  disputeStatus?: DisputeStatus;
  /** Starts a new dispute even if the payment has an open one. */
  newDispute?: boolean;
}

/** Defence reasons the stand-in offers for every dispute, and the documents each needs. */
const DEFENSE_REASONS = [
  {
    defenseReasonCode: 'GoodsOrServicesProvided',
    documents: [
      { defenseDocumentTypeCode: 'DeliveryOrServiceProof', requirementLevel: 'Required' },
      { defenseDocumentTypeCode: 'InvoiceOrReceipt', requirementLevel: 'Optional' },
    ],
  },
  {
    defenseReasonCode: 'SupplyDefenseMaterial',
    documents: [{ defenseDocumentTypeCode: 'DefenseMaterial', requirementLevel: 'Required' }],
  },
  {
    defenseReasonCode: 'AdditionalInformation',
    documents: [{ defenseDocumentTypeCode: 'WrittenExplanation', requirementLevel: 'Optional' }],
  },
];

const DEFAULT_REASON: Record<DisputeEventCode, string> = {
  NOTIFICATION_OF_CHARGEBACK: 'Fraudulent Processing of Transactions',
  CHARGEBACK: 'Fraudulent Processing of Transactions',
  CHARGEBACK_REVERSED: 'Chargeback reversed',
  SECOND_CHARGEBACK: 'Second chargeback',
};

const open = (d: StandInDispute) => !['Won', 'Lost', 'Accepted', 'Expired'].includes(d.status);

/** Disputes: raised on demand by tests (`dispute`), answered through the DisputeService v30. */
export class DisputeBook {
  readonly disputes = new Map<string, StandInDispute>();

  constructor(
    private readonly checkout: CheckoutBook,
    private readonly notifier: Notifier,
    private readonly now: () => Date,
  ) {}

  /** Sends a dispute event for a payment (the same dispute pspReference for every stage of one dispute). */
  raise(paymentPsp: string, eventCode: DisputeEventCode, opts: DisputeOptions = {}): StandInDispute {
    const payment = this.checkout.payments.get(paymentPsp);
    if (!payment) throw new Error(`dispute: no payment ${paymentPsp} at the stand-in`);
    let dispute = opts.newDispute
      ? undefined
      : [...this.disputes.values()].reverse().find((d) => d.paymentPspReference === paymentPsp);
    if (dispute && !open(dispute) && eventCode !== 'SECOND_CHARGEBACK' && eventCode !== 'CHARGEBACK_REVERSED')
      dispute = undefined;
    if (!dispute) {
      const due = opts.defenseDueDate ?? new Date(this.now().getTime() + 20 * 86_400_000);
      dispute = {
        pspReference: newPspReference(),
        paymentPspReference: paymentPsp,
        amount:
          opts.amount ??
          (payment.captured > 0
            ? { currency: payment.amountAuthorised.currency, value: payment.captured }
            : payment.amountAuthorised),
        reasonCode: opts.reasonCode ?? '10.4',
        reason: opts.reason ?? DEFAULT_REASON[eventCode],
        defensePeriodEndsAt: typeof due === 'string' ? due : adyenDate(due),
        status: 'Undefended',
        events: [],
        documents: [],
      };
      this.disputes.set(dispute.pspReference, dispute);
    } else {
      if (opts.amount) dispute.amount = opts.amount;
      if (opts.reason) dispute.reason = opts.reason;
    }
    dispute.events.push(eventCode);
    if (eventCode === 'CHARGEBACK_REVERSED') dispute.status = 'Won';
    else if (eventCode === 'SECOND_CHARGEBACK') dispute.status = 'Lost';
    if (opts.disputeStatus) dispute.status = opts.disputeStatus;
    this.notify(
      dispute,
      eventCode,
      opts.reason ?? (eventCode === dispute.events[0] ? dispute.reason : DEFAULT_REASON[eventCode]),
    );
    return dispute;
  }

  /** POST /acceptDispute */
  accept(body: Record<string, unknown>): Answer {
    const dispute = this.find(body);
    if (!dispute) return result(false, 'Could not find dispute');
    if (!open(dispute) || dispute.status === 'Responded') return result(false, `Dispute is ${dispute.status}`);
    dispute.status = 'Accepted';
    // Accepting at the notification stage turns it into a chargeback the merchant accepted.
    if (dispute.events.at(-1) === 'NOTIFICATION_OF_CHARGEBACK') {
      dispute.events.push('CHARGEBACK');
      this.notify(dispute, 'CHARGEBACK', dispute.reason);
    }
    return result(true);
  }

  /** POST /retrieveApplicableDefenseReasons */
  defenseReasons(body: Record<string, unknown>): Answer {
    const dispute = this.find(body);
    if (!dispute) return result(false, 'Could not find dispute');
    const defenseReasons = DEFENSE_REASONS.map((r) => ({
      defenseReasonCode: r.defenseReasonCode,
      satisfied: this.satisfied(dispute, r.defenseReasonCode),
      defenseDocumentTypes: r.documents.map((d) => ({
        ...d,
        available: dispute.documents.some((doc) => doc.defenseDocumentTypeCode === d.defenseDocumentTypeCode),
      })),
    }));
    return { status: 200, body: { defenseReasons, disputeServiceResult: { success: true } } };
  }

  /** POST /supplyDefenseDocument */
  supplyDocuments(body: Record<string, unknown>): Answer {
    const dispute = this.find(body);
    if (!dispute) return result(false, 'Could not find dispute');
    const known = new Set(DEFENSE_REASONS.flatMap((r) => r.documents.map((d) => d.defenseDocumentTypeCode)));
    const documents = (body.defenseDocuments ?? []) as { defenseDocumentTypeCode: string; contentType: string }[];
    const unknown = documents.find((d) => !known.has(d.defenseDocumentTypeCode));
    if (unknown) return result(false, `Invalid defense document type ${unknown.defenseDocumentTypeCode}`);
    for (const d of documents)
      dispute.documents.push({ defenseDocumentTypeCode: d.defenseDocumentTypeCode, contentType: d.contentType });
    return result(true);
  }

  /** POST /deleteDisputeDefenseDocument */
  deleteDocument(body: Record<string, unknown>): Answer {
    const dispute = this.find(body);
    if (!dispute) return result(false, 'Could not find dispute');
    const before = dispute.documents.length;
    dispute.documents = dispute.documents.filter((d) => d.defenseDocumentTypeCode !== body.defenseDocumentType);
    return before === dispute.documents.length ? result(false, 'Document not found') : result(true);
  }

  /** POST /defendDispute: needs an applicable reason whose required documents were supplied. */
  defend(body: Record<string, unknown>): Answer {
    const dispute = this.find(body);
    if (!dispute) return result(false, 'Could not find dispute');
    if (!open(dispute) || dispute.status === 'Responded') return result(false, `Dispute is ${dispute.status}`);
    const code = String(body.defenseReasonCode);
    if (!DEFENSE_REASONS.some((r) => r.defenseReasonCode === code))
      return result(false, `Invalid defense reason ${code}`);
    if (!this.satisfied(dispute, code)) return result(false, 'Required defense documents are missing');
    dispute.defenseReasonCode = code;
    dispute.status = 'Responded';
    return result(true);
  }

  private satisfied(dispute: StandInDispute, code: string): boolean {
    const reason = DEFENSE_REASONS.find((r) => r.defenseReasonCode === code)!;
    return reason.documents.every(
      (d) =>
        d.requirementLevel !== 'Required' ||
        dispute.documents.some((doc) => doc.defenseDocumentTypeCode === d.defenseDocumentTypeCode),
    );
  }

  private find(body: Record<string, unknown>): StandInDispute | undefined {
    const dispute = this.disputes.get(String(body.disputePspReference));
    const payment = dispute && this.checkout.payments.get(dispute.paymentPspReference);
    return payment && payment.merchantAccount === body.merchantAccountCode ? dispute : undefined;
  }

  private notify(dispute: StandInDispute, eventCode: DisputeEventCode, reason: string): void {
    const payment = this.checkout.payments.get(dispute.paymentPspReference)!;
    const additionalData: Record<string, string> = {
      disputeStatus: dispute.status,
      paymentMethodVariant: payment.brand,
    };
    if (eventCode === 'NOTIFICATION_OF_CHARGEBACK' || eventCode === 'CHARGEBACK' || eventCode === 'SECOND_CHARGEBACK') {
      additionalData.chargebackReasonCode = dispute.reasonCode;
      additionalData.chargebackSchemeCode = payment.brand;
      additionalData.modificationMerchantReferences = payment.merchantReference;
    }
    if (eventCode === 'NOTIFICATION_OF_CHARGEBACK' || eventCode === 'CHARGEBACK') {
      additionalData.defensePeriodEndsAt = dispute.defensePeriodEndsAt;
      additionalData.defendable = open(dispute) ? 'true' : 'false';
      additionalData.autoDefended = 'false';
    }
    if (payment.shopperReference) additionalData.shopperReference = payment.shopperReference;
    const item: NotificationItem = {
      eventCode,
      pspReference: dispute.pspReference,
      originalReference: dispute.paymentPspReference,
      merchantAccountCode: payment.merchantAccount,
      merchantReference: payment.merchantReference,
      amount: dispute.amount,
      success: 'true',
      paymentMethod: payment.brand,
      reason,
      eventDate: adyenDate(this.now()),
      additionalData,
    };
    this.notifier.emit(item);
  }
}

function result(success: boolean, errorMessage?: string): Answer {
  return { status: 200, body: { disputeServiceResult: errorMessage ? { success, errorMessage } : { success } } };
}
