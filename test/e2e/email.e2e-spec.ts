import type { ParsedMail } from 'mailparser';
import { cards, createProducts, openCheckout, paidOrder } from '../helpers/fixtures.js';
import { renewalCards, subscribeWith } from '../helpers/card-links.js';
import { signedInConsole } from '../helpers/console.js';
import type { Client } from '../helpers/http.js';
import { pdfText, recipients, startMailSink, type MailSink } from '../helpers/mail-sink.js';
import { newMerchant, startTestApp, type MerchantClient, type TestApp } from '../helpers/test-app.js';

/**
 * Email to shoppers and teams, received by a real SMTP server in this process: every message's
 * recipient, subject, HTML and text parts, attachments, and that no card number appears.
 */

let t: TestApp;
let sink: MailSink;
let m: MerchantClient;
let api: Client;

const MAIL_FROM = 'Shop Mail <mail@shop.example>';
const DAY = 86_400;

beforeAll(async () => {
  sink = await startMailSink();
  t = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM });
  await t.reset();
});
beforeEach(async () => {
  m = await newMerchant(t, 'Acme Health');
  api = m.api;
  await createProducts(api, [
    ['THERM', 'Digital thermometer', 2000],
    ['CANDY', 'Chocolate candy', 1500],
  ]);
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** Moves this merchant's test clock and runs every job due (the email sweep last). */
const advance = async (seconds: number) =>
  expect((await api.post('/api/v2/test-helpers/advance-clock', { seconds })).status).toBe(200);

/** Messages the sink received from here on. */
function inbox() {
  const from = sink.messages.length;
  return {
    all: () => sink.messages.slice(from),
    to: (address: string) =>
      sink.messages.slice(from).filter((mail) => recipients(mail).includes(address.toLowerCase())),
  };
}

const ALL_CARD_NUMBERS = [...Object.values(cards), ...Object.values(renewalCards)].map((c) => c.number);

/** The message shows no card number (any run of 13 or more digits), in any part or attachment. */
async function expectNoCardNumber(mail: ParsedMail): Promise<void> {
  const texts = [mail.subject ?? '', mail.text ?? '', typeof mail.html === 'string' ? mail.html : ''];
  for (const a of mail.attachments)
    texts.push(a.contentType === 'application/pdf' ? await pdfText(a.content) : a.content.toString('utf8'));
  for (const text of texts) {
    for (const number of ALL_CARD_NUMBERS) expect(text).not.toContain(number);
    expect(text).not.toMatch(/\d{13,}/);
  }
}

/** What every message has: one recipient list, From, a stable Message-ID, an HTML and a text part with the merchant's name. */
async function expectWellFormed(mail: ParsedMail, to: string): Promise<void> {
  expect(recipients(mail)).toEqual([to.toLowerCase()]);
  expect(mail.from?.text).toBe(MAIL_FROM.replace('Shop Mail', '"Shop Mail"'));
  expect(mail.messageId).toMatch(/^<msg_\w+@shop\.example>$/);
  expect(typeof mail.html).toBe('string');
  expect(mail.text).toBeTruthy();
  expect(mail.html).toContain('Acme Health');
  expect(mail.text).toContain('Acme Health');
  await expectNoCardNumber(mail);
}

const SHOPPER = 'jane.doe@example.com';
/** An HTML part with the entities Handlebars escapes links with (`=`, `&`) decoded. */
const decoded = (html: ParsedMail['html']) => (html || '').replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');
const customerEmail = async (id: string) => (await api.get<{ email: string }>(`/api/v2/customers/${id}`)).body.email;

async function paidSplitOrder() {
  const s = await openCheckout(api, [
    ['THERM', 'Thermometer', 2000, 1],
    ['CANDY', 'Candy', 1500, 2],
  ]);
  return paidOrder(api, s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.visa });
}

describe('messages to shoppers', () => {
  test('the order receipt: itemized HSA/FSA receipt PDF attached, listing each item with its eligibility and the amount each card paid', async () => {
    const box = inbox();
    const order = await paidSplitOrder();
    await advance(1);
    const [mail, ...more] = box.to(SHOPPER);
    expect(more).toHaveLength(0);
    await expectWellFormed(mail, SHOPPER);
    expect(mail.subject).toBe(`Your receipt from Acme Health (order ${order.order_number})`);
    for (const part of [mail.text!, mail.html as string]) {
      expect(part).toContain('Thermometer');
      expect(part).toContain('Not HSA/FSA eligible');
      expect(part).toContain('HSA/FSA card visa •••• 0013');
      expect(part).toContain('Card visa •••• 4242');
    }
    expect(mail.text).toContain('- 1 x Thermometer (HSA/FSA eligible): 20.00 USD');
    expect(mail.text).toContain('- 2 x Candy (Not HSA/FSA eligible): 30.00 USD');
    expect(mail.attachments).toHaveLength(1);
    const [pdf] = mail.attachments;
    expect(pdf).toMatchObject({ filename: `receipt-${order.order_number}.pdf`, contentType: 'application/pdf' });
    const text = await pdfText(pdf.content);
    expect(text).toContain('1 × Thermometer — HSA/FSA eligible — 20.00 USD');
    expect(text).toContain('2 × Candy — Not HSA/FSA eligible — 30.00 USD');
    expect(text).toContain('Paid by HSA/FSA card visa •••• 0013: 20.00 USD');
    expect(text).toContain('Paid by Card visa •••• 4242: 30.00 USD');
  });

  test('the refund: amount, its HSA/FSA and other parts, and the card each part went back to', async () => {
    const order = await paidSplitOrder();
    await advance(1);
    const box = inbox();
    expect((await api.post('/api/v2/refunds', { order_id: order.id, reason: 'customer_request' })).status).toBe(201);
    await advance(1);
    const [mail, ...more] = box.to(SHOPPER);
    expect(more).toHaveLength(0);
    await expectWellFormed(mail, SHOPPER);
    expect(mail.subject).toBe(`Your refund from Acme Health (order ${order.order_number})`);
    expect(mail.text).toContain('We refunded 50.00 USD');
    expect(mail.text).toContain('HSA/FSA part: 20.00 USD');
    expect(mail.text).toContain('Other part: 30.00 USD');
    expect(mail.text).toContain('- HSA/FSA card visa •••• 0013: 20.00 USD');
    expect(mail.text).toContain('- Card visa •••• 4242: 30.00 USD');
    expect(mail.html).toContain('HSA/FSA part: 20.00 USD');
    expect(mail.attachments).toHaveLength(0);
  });

  test('the renewal receipt of a subscription cycle, with its receipt PDF', async () => {
    const { sub } = await subscribeWith(api, { ...cards.visa, exp_year: 2035 });
    await advance(1);
    const box = inbox();
    await advance(32 * DAY);
    const email = await customerEmail(sub.customer_id);
    const [mail, ...more] = box.to(email);
    expect(more).toHaveLength(0);
    await expectWellFormed(mail, email);
    expect(mail.subject).toMatch(/^Your subscription payment to Acme Health \(order .+\)$/);
    expect(mail.text).toContain('Card visa •••• 4242: 15.00 USD');
    expect(mail.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
    expect(await pdfText(mail.attachments[0].content)).toContain('Paid by Card visa •••• 4242: 15.00 USD');
  });

  test('a renewal refused with disposition action_required: the card-update link in both parts', async () => {
    const box = inbox();
    const { sub } = await subscribeWith(api, renewalCards.actionRequired);
    expect(sub.status).toBe('action_required');
    await advance(1);
    const email = await customerEmail(sub.customer_id);
    const [mail, ...more] = box.to(email);
    expect(more).toHaveLength(0);
    await expectWellFormed(mail, email);
    expect(mail.subject).toBe('Your payment to Acme Health failed: please update your card');
    const link = new RegExp(`${t.url}/card-setup/pmsl_\\w+\\?token=\\w{32}`);
    expect(mail.text).toMatch(link);
    expect(decoded(mail.html)).toMatch(link);
    expect(mail.text).toContain('Card visa •••• 0069');
    expect(mail.text).toContain('(expired card)');
  });

  test('a renewal refused with disposition retry writes no message (billing retries by itself)', async () => {
    const box = inbox();
    const { sub } = await subscribeWith(api, renewalCards.retry);
    expect(sub.status).toBe('past_due');
    await advance(1);
    expect(box.to(await customerEmail(sub.customer_id))).toHaveLength(0);
  });
});

describe('messages to the team', () => {
  test('an invitation goes to the invitee with the link that sets the password', async () => {
    const owner = await signedInConsole(t, m.keys.id, 'owner');
    const box = inbox();
    const res = await owner.graphql(
      'mutation { inviteTeamMember(input: { email: "new.dev@team.test", role: DEVELOPER }) { setupUrl } }',
    );
    const { setupUrl } = (res.body as { data: { inviteTeamMember: { setupUrl: string } } }).data.inviteTeamMember;
    await advance(1);
    const [mail, ...more] = box.to('new.dev@team.test');
    expect(more).toHaveLength(0);
    await expectWellFormed(mail, 'new.dev@team.test');
    expect(mail.subject).toBe("You're invited to Acme Health's console");
    expect(mail.text).toContain(setupUrl);
    expect(mail.text).toContain('as developer');
    expect(decoded(mail.html)).toContain(setupUrl);
  });

  test('a dispute opened on an order goes to the owners and admins', async () => {
    await signedInConsole(t, m.keys.id, 'owner', `owner.${m.keys.id}@team.test`);
    await signedInConsole(t, m.keys.id, 'viewer', `viewer.${m.keys.id}@team.test`);
    const order = await paidSplitOrder();
    await advance(1);
    const box = inbox();
    expect(
      (await api.post(`/api/v2/test-helpers/orders/${order.id}/dispute`, { stage: 'notification', reason: 'Fraud' }))
        .status,
    ).toBe(200);
    await advance(1);
    const [mail, ...more] = box.all().filter((x) => x.subject?.startsWith('A dispute'));
    expect(more).toHaveLength(0);
    await expectWellFormed(mail, `owner.${m.keys.id}@team.test`);
    expect(mail.subject).toBe(`A dispute was opened on order ${order.order_number}`);
    expect(mail.text).toContain('50.00 USD');
    expect(mail.text).toContain(`/dashboard#/orders/${order.id}`);
  });

  test('a webhook endpoint failing for 24 hours: one message for the streak', async () => {
    await signedInConsole(t, m.keys.id, 'admin', `admin.${m.keys.id}@team.test`);
    const url = 'http://127.0.0.1:9/hooks'; // nothing listens: every attempt fails
    expect((await api.post('/api/v2/webhook-endpoints', { url, events: ['product.created'] })).status).toBe(201);
    await createProducts(api, [['MASK', 'Mask', 500]]);
    await advance(1);
    const box = inbox();
    await advance(12 * 3600);
    expect(box.all()).toHaveLength(0); // failing for 12 hours only
    await advance(13 * 3600);
    await createProducts(api, [['GAUZE', 'Gauze', 300]]);
    await advance(1);
    await advance(3600);
    const [mail, ...more] = box.all();
    expect(more).toHaveLength(0);
    await expectWellFormed(mail, `admin.${m.keys.id}@team.test`);
    expect(mail.subject).toBe(`Webhook endpoint failing for 24 hours: ${url}`);
    expect(mail.text).toContain('after 3 days of failures it is disabled');
  });
});

describe('branding and opt-outs', () => {
  test('every message carries the branding of Settings → Branding: name, support email, logo, address, phone', async () => {
    const res = await api.graphql<{ updateEmailSettings: { settings: { brandName: string } } }>(
      'mutation { updateEmailSettings(input: { brandName: "Acme Health & Co", supportEmail: "help@acme.example", logoUrl: "https://acme.example/logo.png", businessAddress: "12 Health Way, Austin, TX", phone: "+1 512 555 0199" }) { settings { brandName supportEmail logoUrl } userErrors { code } } }',
    );
    expect(res.body.data.updateEmailSettings).toEqual({
      settings: {
        brandName: 'Acme Health & Co',
        supportEmail: 'help@acme.example',
        logoUrl: 'https://acme.example/logo.png',
      },
      userErrors: [],
    });
    const badPhone = await api.graphql(
      'mutation { updateEmailSettings(input: { phone: "call me" }) { userErrors { field code } } }',
    );
    expect(badPhone.body.data.updateEmailSettings.userErrors).toEqual([
      { field: ['input', 'phone'], code: 'VALIDATION_ERROR' },
    ]);
    const box = inbox();
    await paidSplitOrder();
    await advance(1);
    const [mail] = box.to(SHOPPER);
    expect(mail.subject).toMatch(/^Your receipt from Acme Health & Co /);
    expect(mail.html).toContain('Acme Health &amp; Co');
    expect(mail.html).toContain('<img src="https://acme.example/logo.png" alt="Acme Health &amp; Co"');
    expect(mail.html).toContain('mailto:help@acme.example');
    expect(mail.text).toContain('Questions? help@acme.example');
    for (const part of [mail.text!, mail.html as string]) {
      expect(part).toContain('12 Health Way, Austin, TX');
      expect(part).toContain('+1 512 555 0199');
    }
  });

  test('a shopper message turned off is not sent (kept as skipped); the others still are', async () => {
    const res = await api.graphql(
      'mutation { updateEmailSettings(input: { disabledEmails: [ORDER_RECEIPT] }) { settings { shopperEmails { kind enabled } } } }',
    );
    expect(res.body.data).toMatchObject({
      updateEmailSettings: {
        settings: {
          shopperEmails: expect.arrayContaining([
            { kind: 'ORDER_RECEIPT', enabled: false },
            { kind: 'REFUND', enabled: true },
          ]),
        },
      },
    });
    const box = inbox();
    const order = await paidSplitOrder();
    await advance(1);
    expect(box.to(SHOPPER)).toHaveLength(0);
    await api.post('/api/v2/refunds', { order_id: order.id, reason: 'customer_request' });
    await advance(1);
    expect(box.to(SHOPPER).map((x) => x.subject)).toEqual([
      `Your refund from Acme Health (order ${order.order_number})`,
    ]);
    const listed = await api.graphql<{
      emails: { nodes: { kind: string; status: string; lastError: string | null }[] };
    }>('{ emails(first: 10, kind: ORDER_RECEIPT) { nodes { kind status lastError } } }');
    expect(listed.body.data.emails.nodes).toEqual([
      { kind: 'ORDER_RECEIPT', status: 'SKIPPED', lastError: 'turned off in Settings → Emails' },
    ]);
  });
});

describe('delivery', () => {
  test('SMTP refused for a minute, then accepted: every message arrives exactly once, with the Message-ID it was first tried with', async () => {
    sink.refusing = true;
    const box = inbox();
    const orders = [await paidSplitOrder(), await paidSplitOrder(), await paidSplitOrder()];
    await advance(1); // first try: refused
    await advance(30); // not due yet
    await advance(30); // the 1-minute retry: refused again
    expect(sink.refused).toBeGreaterThanOrEqual(6);
    expect(box.all()).toHaveLength(0);
    const queued = await api.graphql<{
      emails: { nodes: { status: string; attempts: number; lastError: string; messageId: string }[] };
    }>('{ emails(first: 10, kind: ORDER_RECEIPT) { nodes { status attempts lastError messageId } } }');
    expect(queued.body.data.emails.nodes).toHaveLength(3);
    for (const n of queued.body.data.emails.nodes)
      expect(n).toMatchObject({ status: 'QUEUED', attempts: 2, lastError: expect.stringContaining('421') });
    sink.refusing = false;
    await advance(5 * 60); // the 5-minute retry: accepted
    await advance(6 * 3600); // later sweeps send nothing again
    const received = box.to(SHOPPER);
    expect(received.map((x) => x.subject).sort()).toEqual(
      orders.map((o) => `Your receipt from Acme Health (order ${o.order_number})`).sort(),
    );
    expect(received.map((x) => x.messageId).sort()).toEqual(
      queued.body.data.emails.nodes.map((n) => n.messageId).sort(),
    );
    const sent = await api.graphql<{ emails: { nodes: { status: string; attempts: number }[] } }>(
      '{ emails(first: 10, kind: ORDER_RECEIPT) { nodes { status attempts } } }',
    );
    expect(sent.body.data.emails.nodes).toEqual(Array.from({ length: 3 }, () => ({ status: 'SENT', attempts: 3 })));
  });

  test('a message a worker held when it died is sent once its lease lapses, and never while the lease holds', async () => {
    const box = inbox();
    const order = await paidSplitOrder();
    const db = t.orm.em.fork().getConnection();
    // A worker took it and died: the lease (real time) still holds for a minute.
    await db.execute(
      `update email_messages set status = 'sending', locked_until = now() + interval '1 minute' where merchant_id = ? and kind = 'order_receipt'`,
      [m.keys.id],
    );
    await advance(1);
    expect(box.to(SHOPPER)).toHaveLength(0);
    await db.execute(
      `update email_messages set locked_until = now() - interval '1 second' where merchant_id = ? and kind = 'order_receipt'`,
      [m.keys.id],
    );
    await advance(1);
    await advance(3600);
    expect(box.to(SHOPPER).map((x) => x.subject)).toEqual([
      `Your receipt from Acme Health (order ${order.order_number})`,
    ]);
  });
});

describe('letters of medical necessity', () => {
  const answers = {
    condition: 'Vitamin D deficiency',
    recommended_by_provider: true,
    provider_name: 'Dr. Rivera',
    attestation: true,
  };
  /** A split checkout of a multivitamin (needs a letter) and candy, paid with both cards: its review is pending. */
  async function reviewedOrder() {
    await createProducts(api, [['VIT', 'Daily multivitamin', 1299]]);
    const s = await openCheckout(api, [
      ['VIT', 'Daily multivitamin', 1299, 1],
      ['CANDY', 'Candy', 1500, 1],
    ]);
    const order = await paidOrder(api, s.checkout_id, { hsa_fsa_card: cards.hsa, card: cards.visa, lmn: answers });
    expect(order.lmn_review?.status).toBe('pending');
    return order as typeof order & { lmn_review: { id: string } };
  }

  test('approved: the letter PDF attached (patient, condition, items, clinician, dates), and the receipt of the completed order', async () => {
    const order = await reviewedOrder();
    const box = inbox();
    await advance(1);
    // While the review is open the order is not completed: no receipt yet.
    expect(box.to(SHOPPER)).toHaveLength(0);
    const approved = await api.post<{ letter_id: string }>(
      `/api/v2/test-helpers/lmn-reviews/${order.lmn_review.id}/approve`,
      { condition: 'Vitamin D deficiency (E55.9)' },
    );
    expect(approved.status).toBe(200);
    await advance(1);
    const mail = box.to(SHOPPER).find((x) => x.subject?.includes('letter of medical necessity'))!;
    await expectWellFormed(mail, SHOPPER);
    expect(mail.subject).toBe('Your letter of medical necessity from Acme Health is approved');
    for (const part of [mail.text!, mail.html as string]) {
      expect(part).toContain('for Vitamin D deficiency (E55.9)');
      expect(part).toContain('Daily multivitamin');
      expect(part).toMatch(/valid until \d{4}-\d{2}-\d{2}/);
    }
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`letter-of-medical-necessity-${approved.body.letter_id}.pdf`, 'application/pdf'],
    ]);
    const text = await pdfText(mail.attachments[0].content);
    for (const part of [
      'Letter of Medical Necessity',
      approved.body.letter_id,
      'Jane Doe',
      'Vitamin D deficiency (E55.9)',
      'Daily multivitamin',
      'NPI',
      'Issued',
      'Valid until',
    ])
      expect(text).toContain(part);
    expect(box.to(SHOPPER).map((x) => x.subject)).toContain(
      `Your receipt from Acme Health (order ${order.order_number})`,
    );
  });

  test('declined: the reason, and that the hold was released and the card refunded', async () => {
    const order = await reviewedOrder();
    const box = inbox();
    expect(
      (
        await api.post(`/api/v2/test-helpers/lmn-reviews/${order.lmn_review.id}/decline`, {
          reason: 'Not indicated for this condition',
        })
      ).status,
    ).toBe(200);
    await advance(1);
    const [mail, ...more] = box.to(SHOPPER);
    expect(more).toHaveLength(0);
    await expectWellFormed(mail, SHOPPER);
    expect(mail.subject).toBe('Your request for a letter of medical necessity from Acme Health was declined');
    for (const part of [mail.text!, mail.html as string]) {
      expect(part).toContain('declined: Not indicated for this condition');
      expect(part).toContain(`Order ${order.order_number} was not completed`);
      expect(part).toContain('15.00 USD was refunded to your card');
    }
    expect(mail.attachments).toHaveLength(0);
  });

  test('no decision in time: declined because nobody could review it', async () => {
    const order = await reviewedOrder();
    const box = inbox();
    await advance(145 * 3600);
    const [mail] = box.to(SHOPPER).filter((x) => x.subject?.includes('declined'));
    expect(mail.text).toContain('declined: no clinician could review it in time');
    expect(mail.text).toContain(`Order ${order.order_number} was not completed`);
  });

  test('each can be turned off like any shopper message', async () => {
    const off = await api.graphql(
      'mutation { updateEmailSettings(input: { disabledEmails: [LMN_DECLINED] }) { userErrors { code } } }',
    );
    expect(off.body.data.updateEmailSettings.userErrors).toEqual([]);
    const order = await reviewedOrder();
    const box = inbox();
    await api.post(`/api/v2/test-helpers/lmn-reviews/${order.lmn_review.id}/decline`, {});
    await advance(1);
    expect(box.to(SHOPPER)).toHaveLength(0);
  });
});
