import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  parseSignatureHeader,
  signStandardWebhook,
  signWebhook,
  standardWebhookKey,
  verifyWebhook,
  webhookSignatureHeaders,
} from './webhook-signature.js';

const body = JSON.stringify({
  id: 'evt_1',
  type: 'order.completed',
  created_at: '2026-01-01T00:00:00.000Z',
  data: { amount: 4995 },
});
const secret = 'whsec_test_secret_one';
const other = 'whsec_test_secret_two';
const now = 1_800_000_000_000;
const t = now / 1000;

test('signs t.body with HMAC-SHA256 keyed by the whole secret string', () => {
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  expect(signWebhook(body, secret, t)).toBe(`t=${t},v1=${expected}`);
});

test('a rotation signs with both secrets, newest first', () => {
  const header = signWebhook(body, [other, secret], t);
  expect(header.split(',')).toHaveLength(3);
  expect(verifyWebhook(body, header, secret, 300, now)).toBe(true);
  expect(verifyWebhook(body, header, other, 300, now)).toBe(true);
  expect(verifyWebhook(body, header, 'whsec_unknown', 300, now)).toBe(false);
});

test('verifies with any of several secrets, and accepts Buffers', () => {
  const header = signWebhook(body, secret, t);
  expect(verifyWebhook(Buffer.from(body), header, ['whsec_new', secret], 300, now)).toBe(true);
});

test('rejects a changed body, a wrong secret and a missing or malformed header', () => {
  const header = signWebhook(body, secret, t);
  expect(verifyWebhook(`${body} `, header, secret, 300, now)).toBe(false);
  expect(verifyWebhook(body, header, other, 300, now)).toBe(false);
  expect(verifyWebhook(body, undefined, secret, 300, now)).toBe(false);
  expect(verifyWebhook(body, '', secret, 300, now)).toBe(false);
  expect(verifyWebhook(body, 'v1=abc', secret, 300, now)).toBe(false);
  expect(verifyWebhook(body, `t=${t}`, secret, 300, now)).toBe(false);
  expect(verifyWebhook(body, header.replace(/v1=[0-9a-f]{4}/, 'v1=0000'), secret, 300, now)).toBe(false);
  expect(verifyWebhook(body, header.replace(/v1=([0-9a-f]+)/, 'v1=$1ab'), secret, 300, now)).toBe(false);
  expect(verifyWebhook(body, header, [], 300, now)).toBe(false);
});

test('rejects timestamps beyond the tolerance either way (300 s by default)', () => {
  expect(verifyWebhook(body, signWebhook(body, secret, t - 300), secret, 300, now)).toBe(true);
  expect(verifyWebhook(body, signWebhook(body, secret, t - 301), secret, undefined, now)).toBe(false);
  expect(verifyWebhook(body, signWebhook(body, secret, t + 301), secret, undefined, now)).toBe(false);
  expect(verifyWebhook(body, signWebhook(body, secret, t - 3600), secret, 7200, now)).toBe(true);
});

test('parses headers with spaces and unknown schemes, ignoring the latter', () => {
  const sig = 'a'.repeat(64);
  expect(parseSignatureHeader(`t=12, v0=zz, v1=${sig.toUpperCase()}`)).toEqual({ timestamp: 12, signatures: [sig] });
  expect(parseSignatureHeader(`t=12,t=13,v1=${sig}`)).toBeNull();
  expect(parseSignatureHeader(`t=x,v1=${sig}`)).toBeNull();
});

describe('Standard Webhooks', () => {
  // A secret as we issue them: whsec_ + 32 base62 characters.
  const issued = 'whsec_Zk3xQ9aB7cD2eF4gH6iJ8kL0mN1oP3qR';
  const msgId = 'evt_1';

  test('the key is the base64-decoded part after whsec_; the signature is v1,<base64 HMAC-SHA256 of id.t.body>', () => {
    const key = standardWebhookKey(issued);
    expect(key).toHaveLength(24);
    const expected = createHmac('sha256', key).update(`${msgId}.${t}.${body}`).digest('base64');
    expect(signStandardWebhook(msgId, body, issued, t)).toBe(`v1,${expected}`);
  });

  test('the standardwebhooks package verifies what we sign, one secret or two during a rotation', () => {
    const rotatedTo = 'whsec_aaaaBBBBccccDDDDeeeeFFFFgggg0123';
    const headers = webhookSignatureHeaders(msgId, body, [rotatedTo, issued], Math.floor(Date.now() / 1000));
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [rotatedTo, issued])
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(body, headers)).toThrow();
    expect(() => new Webhook(issued).verify(body.replace('4995', '4996'), headers)).toThrow();
    expect(verifyWebhook(body, headers['x-service-signature'], issued)).toBe(true);
  });
});
