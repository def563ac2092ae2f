import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';
import { connectionType, CreatedRangeArgs } from '../../platform/relay/connection.js';
import { EMAIL_KINDS, EMAIL_STATUSES, SHOPPER_EMAIL_KINDS, type EmailMessage } from './email-message.entity.js';
import type { EmailSettingsView } from './email.service.js';

export const EmailKindEnum = graphqlEnum(
  'EmailKind',
  EMAIL_KINDS,
  'Shopper messages: order_receipt, refund, renewal_receipt, payment_failed, lmn_approved, lmn_declined; team messages: team_invitation, dispute_opened, webhook_endpoint_failing',
);
export const ShopperEmailKindEnum = graphqlEnum(
  'ShopperEmailKind',
  SHOPPER_EMAIL_KINDS,
  'A message to shoppers, which a merchant can turn off',
);
export const EmailStatusEnum = graphqlEnum(
  'EmailStatus',
  EMAIL_STATUSES,
  'queued: waiting (or for a retry); sending: a worker holds it; sent: the SMTP server accepted it; failed: every retry refused; stored: no SMTP_URL, kept here only; skipped: turned off, or nobody to send it to',
);

@ObjectType('EmailAttachment', { description: 'A file the message carries, rendered when it is sent' })
export class EmailAttachmentNode {
  @Field({ description: 'receipt (an order’s itemized HSA/FSA receipt PDF), lmn_letter, …' }) kind!: string;
  @Field(() => ID, { description: 'What it renders: ord_…, lmn_…' }) objectId!: string;
}

@ObjectType('Email', {
  description: 'A message of the email outbox: written with the change that caused it, sent by a sweep with retries',
})
export class EmailNode {
  @Field(() => ID, { description: 'msg_…' }) id!: string;
  @Field(() => EmailKindEnum) kind!: ValueOf<typeof EmailKindEnum>;
  @Field(() => String, {
    nullable: true,
    description: 'Recipients, comma-separated (a team message: filled when it is rendered)',
  })
  to!: string | null;
  @Field(() => String, { nullable: true, description: 'Null until the sweep renders it' }) subject!: string | null;
  @Field(() => String, { nullable: true }) html!: string | null;
  @Field(() => String, { nullable: true }) text!: string | null;
  @Field(() => [EmailAttachmentNode]) attachments!: EmailAttachmentNode[];
  @Field(() => EmailStatusEnum) status!: ValueOf<typeof EmailStatusEnum>;
  @Field(() => Int, { description: 'Sends tried' }) attempts!: number;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it is tried next (queued)' })
  nextAttemptAt!: Date | null;
  @Field(() => String, { nullable: true }) lastError!: string | null;
  @Field(() => String, { nullable: true, description: 'The Message-ID every try carries' }) messageId!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) sentAt!: Date | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;

  static from(m: EmailMessage): EmailNode {
    return Object.assign(new EmailNode(), {
      id: m.id,
      kind: m.kind,
      to: m.to,
      subject: m.subject,
      html: m.html,
      text: m.text,
      attachments: m.attachments.map((a) => Object.assign(new EmailAttachmentNode(), { kind: a.kind, objectId: a.id })),
      status: m.status,
      attempts: m.attempts,
      nextAttemptAt: m.status === 'queued' ? m.nextAttemptAt : null,
      lastError: m.lastError,
      messageId: m.messageId,
      sentAt: m.sentAt,
      createdAt: m.createdAt,
    });
  }
}

export const EmailConnection = connectionType('Email', EmailNode);

@ArgsType()
export class EmailsArgs extends CreatedRangeArgs {
  @Field(() => EmailKindEnum, { nullable: true }) kind?: ValueOf<typeof EmailKindEnum> | null;
  @Field(() => EmailStatusEnum, { nullable: true }) status?: ValueOf<typeof EmailStatusEnum> | null;
  @Field(() => String, { nullable: true, description: 'Only messages to this address (or a part of it)' }) to?:
    string | null;
}

@ObjectType('ShopperEmailSetting')
export class ShopperEmailSettingNode {
  @Field(() => ShopperEmailKindEnum) kind!: ValueOf<typeof ShopperEmailKindEnum>;
  @Field() enabled!: boolean;
}

@ObjectType('EmailSettings', {
  description:
    'Settings → Branding and Settings → Emails: what every message carries, and which shopper messages are sent',
})
export class EmailSettingsNode {
  @Field({ description: "The name messages carry (default: the merchant's name)" }) brandName!: string;
  @Field(() => String, { nullable: true }) supportEmail!: string | null;
  @Field(() => String, { nullable: true, description: 'https URL of the logo at the top of each HTML message' })
  logoUrl!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'Where the business is, one line: on receipts and in every message footer',
  })
  businessAddress!: string | null;
  @Field(() => String, { nullable: true, description: 'The business phone: on receipts and in every message footer' })
  phone!: string | null;
  @Field(() => [ShopperEmailSettingNode]) shopperEmails!: ShopperEmailSettingNode[];
  @Field({ description: 'False: SMTP_URL is unset, nothing leaves the machine and messages stay in the outbox' })
  smtpConfigured!: boolean;

  static from(v: EmailSettingsView): EmailSettingsNode {
    return Object.assign(new EmailSettingsNode(), {
      brandName: v.brand_name,
      supportEmail: v.support_email,
      logoUrl: v.logo_url,
      businessAddress: v.business_address,
      phone: v.phone,
      shopperEmails: v.shopper_emails.map((s) => Object.assign(new ShopperEmailSettingNode(), s)),
      smtpConfigured: v.smtp_configured,
    });
  }
}

@InputType()
export class UpdateEmailSettingsInput {
  @Field(() => String, { nullable: true, description: 'Empty or null: the merchant’s name' }) brandName?: string | null;
  @Field(() => String, { nullable: true }) supportEmail?: string | null;
  @Field(() => String, { nullable: true }) logoUrl?: string | null;
  @Field(() => String, { nullable: true, description: 'Where the business is, one line (receipts, message footers)' })
  businessAddress?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => [ShopperEmailKindEnum], {
    nullable: true,
    description: 'The shopper messages turned off (the whole list: others are sent)',
  })
  disabledEmails?: ValueOf<typeof ShopperEmailKindEnum>[] | null;
}

const EmailMutationPayload = mutationPayload('Email', ['validation_error']);

@ObjectType()
export class UpdateEmailSettingsPayload extends EmailMutationPayload {
  @Field(() => EmailSettingsNode, { nullable: true }) settings!: EmailSettingsNode | null;
}
