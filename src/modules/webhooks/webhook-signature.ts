import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures as the spec defines them: `X-Service-Signature: t=<unix seconds>,v1=<hex>`,
 * where each `v1` is HMAC-SHA256 over `<t>.<raw body>` keyed with the whole secret string
 * (`whsec_…` included). During a secret rotation the header carries one `v1` per secret.
 * Every delivery also carries the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`; see `signStandardWebhook`), signed with the same secrets.
 * Pure functions: the sender uses `webhookSignatureHeaders`, receivers `verifyWebhook` (exported by the package).
 */

/** Hex HMAC-SHA256 of `<t>.<rawBody>` keyed with `secret`. */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The `X-Service-Signature` value for `rawBody`: one `v1` per secret (newest first), at `timestamp` (unix seconds, default now). */
export function signWebhook(
  rawBody: string | Buffer,
  secrets: string | string[],
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const list = Array.isArray(secrets) ? secrets : [secrets];
  if (list.length === 0) throw new Error('signWebhook needs at least one secret');
  return [`t=${timestamp}`, ...list.map((secret) => `v1=${computeSignature(secret, timestamp, rawBody)}`)].join(',');
}

/** The parts of a signature header; `null` when it is not one. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== undefined) return null;
      timestamp = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) {
      signatures.push(value.toLowerCase());
    }
  }
  return timestamp === undefined || signatures.length === 0 ? null : { timestamp, signatures };
}

/**
 * Checks a delivery on the receiving side: true when the header's timestamp is within
 * `toleranceSeconds` of `now` (either way) and one of its `v1` values is the HMAC of
 * `<t>.<rawBody>` under one of `secrets` (pass both during a rotation). `rawBody` must be the
 * bytes as received, before any JSON parsing. Comparison is constant-time after a length check.
 */
export function verifyWebhook(
  rawBody: string | Buffer,
  header: string | undefined | null,
  secrets: string | string[],
  toleranceSeconds = 300,
  now: number = Date.now(),
): boolean {
  if (typeof header !== 'string') return false;
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  if (Math.abs(Math.floor(now / 1000) - parsed.timestamp) > toleranceSeconds) return false;
  const candidates = (Array.isArray(secrets) ? secrets : [secrets]).filter(
    (s) => typeof s === 'string' && s.length > 0,
  );
  let matched = false;
  for (const secret of candidates) {
    const expected = Buffer.from(computeSignature(secret, parsed.timestamp, rawBody), 'hex');
    for (const signature of parsed.signatures) {
      const given = Buffer.from(signature, 'hex');
      // No early return: every pair is compared, so timing says nothing about which one matched.
      if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
    }
  }
  return matched;
}

/**
 * The Standard Webhooks (standardwebhooks.com) key of a `whsec_` secret: the part after the
 * prefix, base64-decoded. Every secret we issue is `whsec_` + 32 base62 characters, all of them in
 * the base64 alphabet and a multiple of 4 long, so that part decodes to a 24-byte key: the same
 * one `new Webhook(secret)` of the `standardwebhooks` package (or Svix's libraries) derives.
 */
export function standardWebhookKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/**
 * The Standard Webhooks `webhook-signature` value: `v1,<base64 HMAC-SHA256>` of
 * `<msgId>.<timestamp>.<rawBody>` per secret (newest first), space-separated during a rotation.
 */
export function signStandardWebhook(
  msgId: string,
  rawBody: string | Buffer,
  secrets: string | string[],
  timestamp: number,
): string {
  const list = Array.isArray(secrets) ? secrets : [secrets];
  if (list.length === 0) throw new Error('signStandardWebhook needs at least one secret');
  const sign = (secret: string) =>
    createHmac('sha256', standardWebhookKey(secret)).update(`${msgId}.${timestamp}.`).update(rawBody).digest('base64');
  return list.map((secret) => `v1,${sign(secret)}`).join(' ');
}

/** Every signature header of one delivery: the spec's `X-Service-Signature` and the Standard Webhooks trio, all at one `timestamp`. */
export function webhookSignatureHeaders(
  msgId: string,
  rawBody: string,
  secrets: string[],
  timestamp = Math.floor(Date.now() / 1000),
): Record<string, string> {
  return {
    'x-service-signature': signWebhook(rawBody, secrets, timestamp),
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandardWebhook(msgId, rawBody, secrets, timestamp),
  };
}
