import { cards, createProducts, openCheckout, paidOrder } from '../helpers/fixtures.js';
import { signedInConsole } from '../helpers/console.js';
import { startWithMerchant, type MerchantClient, type TestApp } from '../helpers/test-app.js';
import { deliverDueEmails } from '../../src/modules/email/email-delivery.service.js';
import { sqlStatementCount } from '../../src/platform/db/sql-counter.js';
import { runStatement } from '../../src/platform/db/sql.js';

/**
 * With no SMTP_URL (the embedded default) nothing leaves the machine: every message is kept in the
 * outbox, rendered, readable through GraphQL `emails` (and the console's Settings → Emails).
 */

let t: TestApp;
let m: MerchantClient;

beforeAll(async () => {
  ({ t, ...m } = await startWithMerchant('Acme Health'));
  await createProducts(m.api, [['THERM', 'Digital thermometer', 2000]]);
});
afterAll(() => t.close());

interface EmailRow {
  kind: string;
  to: string;
  subject: string;
  status: string;
  attempts: number;
  html: string;
  text: string;
  attachments: { kind: string; objectId: string }[];
  messageId: string;
}
const FIELDS = 'kind to subject status attempts html text attachments { kind objectId } messageId';

test('without SMTP_URL a message is stored, rendered, and readable through GraphQL emails; nothing is sent', async () => {
  const s = await openCheckout(m.api, [['THERM', 'Thermometer', 2000, 1]]);
  const order = await paidOrder(m.api, s.checkout_id, { hsa_fsa_card: cards.hsa });
  await m.api.post('/api/v2/test-helpers/advance-clock', { seconds: 1 });
  const res = await m.api.graphql<{ emails: { nodes: EmailRow[]; pageInfo: { hasNextPage: boolean } } }>(
    `{ emails(first: 5) { nodes { ${FIELDS} } pageInfo { hasNextPage } } }`,
  );
  expect(res.body.data.emails.nodes).toEqual([
    {
      kind: 'ORDER_RECEIPT',
      to: 'Jane.Doe@example.com',
      subject: `Your receipt from Acme Health (order ${order.order_number})`,
      status: 'STORED',
      attempts: 0,
      html: expect.stringContaining('Thermometer'),
      text: expect.stringContaining('- 1 x Thermometer (HSA/FSA eligible): 20.00 USD'),
      attachments: [{ kind: 'receipt', objectId: order.id }],
      messageId: expect.stringMatching(/^<msg_\w+@localhost>$/),
    },
  ]);
  // A later sweep leaves it as it is.
  await m.api.post('/api/v2/test-helpers/advance-clock', { seconds: 3600 });
  const again = await m.api.graphql<{ emails: { nodes: EmailRow[] } }>(`{ emails(first: 5) { nodes { ${FIELDS} } } }`);
  expect(again.body.data.emails.nodes).toEqual(res.body.data.emails.nodes);
});

test('emails filter by kind, status and recipient', async () => {
  const count = async (args: string) =>
    (await m.api.graphql<{ emails: { nodes: unknown[] } }>(`{ emails(first: 10, ${args}) { nodes { kind } } }`)).body
      .data.emails.nodes.length;
  expect(await count('kind: ORDER_RECEIPT')).toBe(1);
  expect(await count('kind: REFUND')).toBe(0);
  expect(await count('status: STORED')).toBe(1);
  expect(await count('status: SENT')).toBe(0);
  expect(await count('to: "jane.doe@"')).toBe(1);
  expect(await count('to: "someone.else"')).toBe(0);
});

test('only owners, admins and secret keys read the outbox and change email settings', async () => {
  const support = await signedInConsole(t, m.keys.id, 'support');
  const res = await support.graphql('{ emails(first: 1) { nodes { subject } } }');
  expect(res.body).toMatchObject({ errors: [{ extensions: { code: 'insufficient_permissions' } }] });
  const admin = await signedInConsole(t, m.keys.id, 'admin');
  const ok = await admin.graphql(
    'mutation { updateEmailSettings(input: { supportEmail: "help@acme.example" }) { settings { supportEmail smtpConfigured } } }',
  );
  expect(ok.body).toMatchObject({
    data: { updateEmailSettings: { settings: { supportEmail: 'help@acme.example', smtpConfigured: false } } },
  });
});

test('email settings refuse a logo URL that is not https and an unknown address, changing nothing', async () => {
  const res = await m.api.graphql(
    'mutation { updateEmailSettings(input: { logoUrl: "http://acme.example/logo.png", supportEmail: "nope" }) { settings { logoUrl } userErrors { field code } } }',
  );
  expect(res.body).toMatchObject({
    data: {
      updateEmailSettings: {
        settings: null,
        userErrors: expect.arrayContaining([expect.objectContaining({ code: 'VALIDATION_ERROR' })]),
      },
    },
  });
  const now = await m.api.graphql('{ emailSettings { logoUrl supportEmail } }');
  expect(now.body).toMatchObject({ data: { emailSettings: { logoUrl: null, supportEmail: 'help@acme.example' } } });
});

test('invitations (they carry a sign-up link) are read with a console session only, never with an API key', async () => {
  const owner = await signedInConsole(t, m.keys.id, 'owner');
  const query = '{ emails(first: 10, kind: TEAM_INVITATION) { nodes { to } } }';
  const asOwner = (await owner.graphql(query)).body as { data: { emails: { nodes: { to: string }[] } } };
  expect(asOwner.data.emails.nodes.length).toBeGreaterThanOrEqual(1);
  const withKey = await m.api.graphql<{ emails: { nodes: unknown[] } }>(query);
  expect(withKey.body.data.emails.nodes).toEqual([]);
  const all = await m.api.graphql<{ emails: { nodes: { kind: string }[] } }>(
    '{ emails(first: 50) { nodes { kind } } }',
  );
  expect(all.body.data.emails.nodes.map((n) => n.kind)).not.toContain('TEAM_INVITATION');
});

test('a sweep renders its batch together: ten receipts in a few statements, and one that cannot be rendered is retried alone', async () => {
  const orders = [];
  for (let i = 0; i < 10; i++) {
    const s = await openCheckout(m.api, [['THERM', `Thermometer ${i}`, 2000, 1]]);
    orders.push(await paidOrder(m.api, s.checkout_id, { hsa_fsa_card: cards.hsa }));
  }
  const em = t.orm.em.fork();
  // As if the sweep had not run yet: the receipts queued and unrendered, and one naming an order that is not there.
  await runStatement(
    em,
    `update email_messages set status = 'queued', html = null, subject = null, text = null, message_id = null, locked_until = null
     where kind = 'order_receipt' and data->>'order_id' = any(?::text[])`,
    [orders.map((o) => o.id)],
    { autocommit: true },
  );
  await runStatement(
    em,
    `insert into email_messages (id, merchant_id, livemode, kind, "to", data, attachments, next_attempt_at, created_at, updated_at)
     select 'msg_missing_order', merchant_id, livemode, kind, "to", '{"order_id": "ord_missing"}', '[]', now() - interval '1 minute', now(), now()
     from email_messages where data->>'order_id' = ?`,
    [orders[0].id],
    { autocommit: true },
  );
  const warnings: unknown[] = [];
  const log = {
    info: () => undefined,
    debug: () => undefined,
    error: () => undefined,
    warn: (o: unknown) => warnings.push(o),
  };
  const before = sqlStatementCount();
  await deliverDueEmails(t.orm, new Date(), log as never);
  // The claim (it answers the rows), merchants, settings, orders, payments, one update, and whatever else the
  // service's own sweeps sent meanwhile: not eight per message.
  expect(sqlStatementCount() - before).toBeLessThanOrEqual(10);
  const rows = await runStatement<{
    id: string;
    status: string;
    html: string | null;
    last_error: string | null;
    attempts: number;
  }>(
    em,
    `select id, status, html, last_error, attempts from email_messages where id = 'msg_missing_order' or data->>'order_id' = any(?::text[]) order by id`,
    [orders.map((o) => o.id)],
    { autocommit: true },
  );
  const missing = rows.find((r) => r.id === 'msg_missing_order')!;
  expect(missing).toMatchObject({
    status: 'queued',
    html: null,
    attempts: 1,
    last_error: expect.stringContaining('ord_missing'),
  });
  const receipts = rows.filter((r) => r.id !== 'msg_missing_order');
  expect(receipts).toHaveLength(10);
  for (const r of receipts) expect(r).toMatchObject({ status: 'stored', html: expect.stringContaining('Thermometer') });
  expect(warnings).toHaveLength(1);
});
