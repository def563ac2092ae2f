import { cards, createProducts, openCheckout, paidOrder } from '../helpers/fixtures.js';
import { signedInConsole } from '../helpers/console.js';
import { startWithMerchant, type MerchantClient, type TestApp } from '../helpers/test-app.js';

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
