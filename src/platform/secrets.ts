import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (a merchant's processor API key, its HMAC key): AES-256-GCM with a 32-byte key
 * from the environment (`SECRETS_KEY`). A sealed value is text,
 * `v1.<iv>.<tag>.<ciphertext>` (each base64url): the version names the algorithm, so a later key
 * or cipher can sit beside it. `aad` binds a sealed value to where it is stored (a row and
 * column): moved anywhere else, it no longer opens. Errors never carry the plaintext or the key.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_HEX = /^[0-9a-fA-F]{64}$/;

/** The 32-byte key written as 64 hexadecimal characters (`openssl rand -hex 32`); anything else throws. */
export function parseSecretsKey(hex: string): Buffer {
  if (!KEY_HEX.test(hex))
    throw new Error(
      'SECRETS_KEY must be exactly 64 hexadecimal characters (32 bytes); generate one with: openssl rand -hex 32',
    );
  return Buffer.from(hex, 'hex');
}

function checkKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('a secrets key is 32 bytes (AES-256)');
}

/** Encrypts `plain` with `key`: a fresh random IV each time, so sealing twice gives two texts. */
export function sealSecret(plain: string, key: Buffer, aad?: string): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

/** Decrypts what `sealSecret` made with the same key (and `aad`); a wrong key or an altered text throws. */
export function openSecret(sealed: string, key: Buffer, aad?: string): string {
  checkKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION)
    throw new Error('not a sealed secret (expected v1.<iv>.<tag>.<ciphertext>)');
  const [iv, tag, body] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('not a sealed secret (bad IV or tag length)');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('a sealed secret cannot be opened: it was sealed with another key, or altered');
  }
}
