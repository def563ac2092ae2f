import { Writable } from 'node:stream';
import pino from 'pino';
import { knexLogOptions, loggerOptions, scrubSql, serializeError } from './logging.js';

test('SQL is logged with every value replaced by ?', () => {
  expect(
    scrubSql(
      `insert into "orders" ("id", "email", "amount") values ('ord_1', 'jane@example.com', 2599), ('o''x', 'tok_abc', -3)`,
    ),
  ).toBe(`insert into "orders" ("id", "email", "amount") values (?, ?, ?), (?, ?, ?)`);
});

test('a database error loses its SQL values, parameters and row detail', () => {
  const err = Object.assign(
    new Error(`insert into "payments" values ('tok_9f8e', 'jane@example.com', 4242424242424242) - boom`),
    {
      detail: 'Key (email)=(jane@example.com) already exists.',
      parameters: ['tok_9f8e'],
      code: '23505',
    },
  );
  const out = JSON.stringify(serializeError(err));
  expect(out).toContain('boom');
  expect(out).toContain('23505');
  expect(out).not.toMatch(/tok_9f8e|jane@example\.com|4242424242424242|already exists/);
});

test('secret keys are redacted at any depth', () => {
  let line = '';
  const sink = new Writable({ write: (chunk, _e, cb) => ((line += chunk), cb()) });
  const log = pino(loggerOptions('info'), sink);
  log.info(
    {
      body: { card: { number: '4242424242424242', cvc: '123' }, customer: { email: 'a@b.co' } },
      webhook_secret: 'whsec_x',
      headers: { authorization: 'Bearer glm_live_x' },
    },
    'hello',
  );
  expect(line).toContain('hello');
  expect(line).not.toMatch(/4242424242424242|"123"|a@b\.co|whsec_x|glm_live_x/);
});

test("a merchant's processor keys are redacted, whichever way they are spelled", () => {
  let line = '';
  const sink = new Writable({ write: (chunk, _e, cb) => ((line += chunk), cb()) });
  const log = pino(loggerOptions('info'), sink);
  const apiKey = 'AQEyhmfxK4nLbxZGw0m-api-key-plaintext';
  const hmacKey = '44782def547aaa06c910c43932b1eb0c71fc68d9d0c057550c48ec2acf6ba056';
  log.info(
    {
      input: { api_key: apiKey, hmac_key: hmacKey },
      account: { apiKey, hmacKey, credentials: { apiKey, hmacKey } },
      config: { SECRETS_KEY: 'ab'.repeat(32), secretsKey: 'cd'.repeat(32) },
      item: { additionalData: { hmacSignature: 'c2lnbmF0dXJl' } },
    },
    'processor set',
  );
  expect(line).toContain('processor set');
  expect(line).not.toMatch(new RegExp(`${apiKey}|${hmacKey}|abababab|cdcdcdcd|c2lnbmF0dXJl`));
});

test('a broken pooled connection knex reports (its failed statement with the values) is one log line without them', () => {
  let out = '';
  const sink = new Writable({ write: (chunk, _e, cb) => ((out += chunk), cb()) });
  const knexLog = knexLogOptions(pino(loggerOptions('info'), sink));
  knexLog.warn(
    `Connection Error: error: insert into "customers" ("email", "phone", "address_line_1") values ('olive@example.com', '+15125559876', '77 Hidden Lane') - terminating connection due to administrator command`,
  );
  const lines = out.trim().split('\n');
  expect(lines).toHaveLength(1);
  const entry = JSON.parse(lines[0]) as { level: number; source: string; msg: string };
  expect([entry.level, entry.source]).toEqual([40, 'knex']);
  expect(entry.msg).toContain('Connection Error: error: insert into "customers"');
  expect(out).not.toMatch(/olive@example\.com|5125559876|Hidden Lane/);
});

test("a lost pooled connection's error is logged without the pg client it carries (Ctrl-C stopped PostgreSQL first)", () => {
  const err = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
    client: {
      connectionParameters: { user: 'postgres', password: 'secret-pass', database: 'commerce' },
      _events: {},
      queue: new Array(50).fill({ text: 'select 1' }),
    },
  });
  const line = JSON.stringify(serializeError(err));
  expect(line).toContain('57P01');
  expect(line).not.toContain('connectionParameters');
  expect(line).not.toContain('secret-pass');
  expect(line).not.toContain('_events');
});
