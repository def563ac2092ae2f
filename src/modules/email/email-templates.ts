import Handlebars from 'handlebars';
import type { EmailKind } from './email-message.entity.js';

/**
 * The markup of every message, in Handlebars: one HTML and one plain-text template per message
 * inside a shared layout that carries the merchant's branding. HTML templates escape every value
 * (`{{…}}`); the text and subject templates are compiled without HTML escaping (they are not HTML).
 */

/** The merchant's branding as messages show it. */
export interface Branding {
  name: string;
  support_email: string | null;
  logo_url: string | null;
  business_address: string | null;
  phone: string | null;
}

interface KindTemplates {
  subject: string;
  html: string;
  text: string;
}

const ITEMS_HTML = `<table role="presentation" cellpadding="6" style="border-collapse:collapse;width:100%">
  <tr><th align="left">Item</th><th align="left">Qty</th><th align="left">HSA/FSA</th><th align="right">Amount</th></tr>
  {{#each items}}<tr><td>{{name}}</td><td>{{quantity}}</td><td>{{eligibility}}</td><td align="right">{{amount}}</td></tr>{{/each}}
</table>`;
const ITEMS_TEXT = `{{#each items}}- {{quantity}} x {{name}} ({{eligibility}}): {{amount}}
{{/each}}`;
const TOTALS_HTML = `<p>Subtotal {{totals.subtotal}}{{#if totals.discount}} · Discount -{{totals.discount}}{{/if}}{{#if totals.shipping}} · Shipping {{totals.shipping}}{{/if}}{{#if totals.tax}} · Tax {{totals.tax}}{{/if}}<br>
<strong>Total {{totals.total}}</strong> (HSA/FSA eligible {{totals.hsa_amount}}, other {{totals.regular_amount}})</p>`;
const TOTALS_TEXT = `Subtotal: {{totals.subtotal}}{{#if totals.discount}}
Discount: -{{totals.discount}}{{/if}}{{#if totals.shipping}}
Shipping: {{totals.shipping}}{{/if}}{{#if totals.tax}}
Tax: {{totals.tax}}{{/if}}
Total: {{totals.total}} (HSA/FSA eligible {{totals.hsa_amount}}, other {{totals.regular_amount}})`;
const PAID_HTML = `<p>Paid with:</p><ul>{{#each payments}}<li>{{card}}: {{amount}}</li>{{/each}}</ul>`;
const PAID_TEXT = `Paid with:
{{#each payments}}- {{card}}: {{amount}}
{{/each}}`;

const TEMPLATES: Record<EmailKind, KindTemplates> = {
  order_receipt: {
    subject: 'Your receipt from {{brand.name}} (order {{order_number}})',
    html: `<p>Hello {{customer_name}},</p><p>Thank you for your order {{order_number}} of {{date}}.</p>${ITEMS_HTML}${TOTALS_HTML}${PAID_HTML}
<p>Your itemized HSA/FSA receipt is attached ({{receipt_filename}}): it is the document your plan administrator asks for.</p>`,
    text: `Hello {{customer_name}},

Thank you for your order {{order_number}} of {{date}}.

${ITEMS_TEXT}
${TOTALS_TEXT}

${PAID_TEXT}
Your itemized HSA/FSA receipt is attached ({{receipt_filename}}): it is the document your plan administrator asks for.`,
  },
  renewal_receipt: {
    subject: 'Your subscription payment to {{brand.name}} (order {{order_number}})',
    html: `<p>Hello {{customer_name}},</p><p>Your subscription was renewed on {{date}}.</p>${ITEMS_HTML}${TOTALS_HTML}${PAID_HTML}
<p>Your itemized HSA/FSA receipt is attached ({{receipt_filename}}).</p>`,
    text: `Hello {{customer_name}},

Your subscription was renewed on {{date}}.

${ITEMS_TEXT}
${TOTALS_TEXT}

${PAID_TEXT}
Your itemized HSA/FSA receipt is attached ({{receipt_filename}}).`,
  },
  refund: {
    subject: 'Your refund from {{brand.name}} (order {{order_number}})',
    html: `<p>Hello {{customer_name}},</p><p>We refunded {{amount}} on your order {{order_number}}.</p>
<p>HSA/FSA part: {{hsa_amount}} · Other part: {{regular_amount}}</p>
<p>Returned to:</p><ul>{{#each parts}}<li>{{card}}: {{amount}}</li>{{/each}}</ul>
<p>It can take 5 to 10 business days to appear on your statement.</p>`,
    text: `Hello {{customer_name}},

We refunded {{amount}} on your order {{order_number}}.

HSA/FSA part: {{hsa_amount}}
Other part: {{regular_amount}}

Returned to:
{{#each parts}}- {{card}}: {{amount}}
{{/each}}
It can take 5 to 10 business days to appear on your statement.`,
  },
  payment_failed: {
    subject: 'Your payment to {{brand.name}} failed: please update your card',
    html: `<p>Hello,</p><p>We could not charge {{amount}} for your subscription to {{card}}{{#if refusal}} ({{refusal}}){{/if}}.</p>
{{#if card_update_url}}<p><a href="{{card_update_url}}">Update your card</a> to keep your subscription (the link works for 24 hours): {{card_update_url}}</p>{{/if}}`,
    text: `Hello,

We could not charge {{amount}} for your subscription to {{card}}{{#if refusal}} ({{refusal}}){{/if}}.
{{#if card_update_url}}
Update your card to keep your subscription (the link works for 24 hours):
{{card_update_url}}{{/if}}`,
  },
  // The LMN messages (variables read by lmn-emails.ts): customer_name, condition, items (names), expires_at, reason, order_number, refunded.
  lmn_approved: {
    subject: 'Your letter of medical necessity from {{brand.name}} is approved',
    html: `<p>Hello {{customer_name}},</p><p>A licensed clinician approved your letter of medical necessity{{#if condition}} for {{condition}}{{/if}}.</p>
{{#if items.length}}<p>It covers:</p><ul>{{#each items}}<li>{{this}}</li>{{/each}}</ul>{{/if}}
{{#if expires_at}}<p>It is valid until {{expires_at}}.</p>{{/if}}<p>The letter is attached: keep it for your plan administrator.</p>`,
    text: `Hello {{customer_name}},

A licensed clinician approved your letter of medical necessity{{#if condition}} for {{condition}}{{/if}}.
{{#if items.length}}
It covers:
{{#each items}}- {{this}}
{{/each}}{{/if}}{{#if expires_at}}
It is valid until {{expires_at}}.{{/if}}
The letter is attached: keep it for your plan administrator.`,
  },
  lmn_declined: {
    subject: 'Your request for a letter of medical necessity from {{brand.name}} was declined',
    html: `<p>Hello {{customer_name}},</p><p>Your request for a letter of medical necessity was declined{{#if reason}}: {{reason}}{{/if}}.</p>
{{#if order_number}}<p>Order {{order_number}} was not completed: the hold on your HSA/FSA card was released{{#if refunded}}, and {{refunded}} was refunded to your card{{/if}}. Nothing was charged for it.</p>{{/if}}`,
    text: `Hello {{customer_name}},

Your request for a letter of medical necessity was declined{{#if reason}}: {{reason}}{{/if}}.
{{#if order_number}}
Order {{order_number}} was not completed: the hold on your HSA/FSA card was released{{#if refunded}}, and {{refunded}} was refunded to your card{{/if}}. Nothing was charged for it.{{/if}}`,
  },
  team_invitation: {
    subject: "You're invited to {{brand.name}}'s console",
    html: `<p>Hello,</p><p>You were invited to {{brand.name}}'s console as {{role}}.</p>
<p><a href="{{setup_url}}">Set your password</a> within 7 days: {{setup_url}}</p>`,
    text: `Hello,

You were invited to {{brand.name}}'s console as {{role}}.

Set your password within 7 days:
{{setup_url}}`,
  },
  dispute_opened: {
    subject: 'A dispute was opened on order {{order_number}}',
    html: `<p>The cardholder disputed a payment of order {{order_number}} ({{amount}}){{#if reason}}: {{reason}}{{/if}}.</p>
<p><a href="{{console_url}}">Open the order in the console</a> to accept or defend it.</p>`,
    text: `The cardholder disputed a payment of order {{order_number}} ({{amount}}){{#if reason}}: {{reason}}{{/if}}.

Open the order in the console to accept or defend it:
{{console_url}}`,
  },
  webhook_endpoint_failing: {
    subject: 'Webhook endpoint failing for 24 hours: {{url}}',
    html: `<p>Every delivery to your webhook endpoint {{url}} has failed since {{failing_since}}{{#if last_error}} (last: {{last_error}}){{/if}}.</p>
<p>Fix the endpoint: after 3 days of failures it is disabled. Failed deliveries can be replayed from the console.</p>`,
    text: `Every delivery to your webhook endpoint {{url}} has failed since {{failing_since}}{{#if last_error}} (last: {{last_error}}){{/if}}.

Fix the endpoint: after 3 days of failures it is disabled. Failed deliveries can be replayed from the console.`,
  },
};

const HTML_LAYOUT = `<!doctype html>
<html><head><meta charset="utf-8"><title>{{subject}}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:640px;margin:0 auto;padding:16px">
<div style="margin-bottom:16px">{{#if brand.logo_url}}<img src="{{brand.logo_url}}" alt="{{brand.name}}" style="max-height:48px"><br>{{/if}}<strong>{{brand.name}}</strong></div>
{{{body}}}
<hr style="border:none;border-top:1px solid #ddd"><p style="color:#666;font-size:12px">{{brand.name}}{{#if brand.business_address}} · {{brand.business_address}}{{/if}}{{#if brand.phone}} · {{brand.phone}}{{/if}}{{#if brand.support_email}} · Questions? <a href="mailto:{{brand.support_email}}">{{brand.support_email}}</a>{{/if}}{{#if test_mode}} · Sent in test mode{{/if}}</p>
</body></html>`;
const TEXT_LAYOUT = `{{brand.name}}

{{{body}}}

--
{{brand.name}}{{#if brand.business_address}}
{{brand.business_address}}{{/if}}{{#if brand.phone}}
{{brand.phone}}{{/if}}{{#if brand.support_email}}
Questions? {{brand.support_email}}{{/if}}{{#if test_mode}}
(sent in test mode){{/if}}
`;

const hb = Handlebars.create();
type Compiled = Handlebars.TemplateDelegate;
const compiled = new Map<string, Compiled>();
function template(key: string, source: string, escape: boolean): Compiled {
  let t = compiled.get(key);
  if (!t) {
    t = hb.compile(source, { noEscape: !escape, strict: false });
    compiled.set(key, t);
  }
  return t;
}

/** A rendered message: subject, HTML part, text part. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** Renders message `kind` from `vars` with `brand` (every value escaped in the HTML part). */
export function renderEmail(
  kind: EmailKind,
  brand: Branding,
  vars: Record<string, unknown>,
  testMode: boolean,
): RenderedEmail {
  const t = TEMPLATES[kind];
  const context = { ...vars, brand, test_mode: testMode };
  const subject = template(
    `${kind}.subject`,
    t.subject,
    false,
  )(context)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const html = template(
    'layout.html',
    HTML_LAYOUT,
    true,
  )({ ...context, subject, body: template(`${kind}.html`, t.html, true)(context) });
  const text = template(
    'layout.text',
    TEXT_LAYOUT,
    false,
  )({ ...context, body: template(`${kind}.text`, t.text, false)(context) });
  return { subject, html, text };
}
