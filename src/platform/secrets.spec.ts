import { randomBytes } from 'node:crypto';
import { openSecret, parseSecretsKey, sealSecret } from './secrets.js';

const key = parseSecretsKey('00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF');
const plain = 'AQEyhmfxK4nLbxZGw0m/n3Q5qf3VaY9UCJ14XWZE03G/k2NFitRvbe4N1XqH1eHaH2AksaEQjWlZ-ÿ✓';

test('a sealed secret opens to what was sealed, and reads as v1.<iv>.<tag>.<ciphertext> without the plaintext', () => {
  const sealed = sealSecret(plain, key);
  expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
  expect(sealed).not.toContain(plain.slice(0, 10));
  expect(openSecret(sealed, key)).toBe(plain);
  expect(openSecret(sealSecret('', key), key)).toBe('');
});

test('sealing twice gives two texts (a fresh IV each time)', () => {
  expect(sealSecret(plain, key)).not.toBe(sealSecret(plain, key));
});

test('an altered ciphertext, tag or IV throws', () => {
  const [v, iv, tag, body] = sealSecret(plain, key).split('.');
  const flip = (part: string) => {
    const bytes = Buffer.from(part, 'base64url');
    bytes[0] ^= 1;
    return bytes.toString('base64url');
  };
  for (const altered of [
    [v, iv, tag, flip(body)],
    [v, iv, flip(tag), body],
    [v, flip(iv), tag, body],
  ]) {
    expect(() => openSecret(altered.join('.'), key)).toThrow(/cannot be opened/);
  }
  expect(() => openSecret(`v2.${iv}.${tag}.${body}`, key)).toThrow(/not a sealed secret/);
  expect(() => openSecret('garbage', key)).toThrow(/not a sealed secret/);
});

test('another key throws, and the error carries neither the plaintext nor a key', () => {
  const sealed = sealSecret(plain, key);
  const other = randomBytes(32);
  let message = '';
  try {
    openSecret(sealed, other);
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toMatch(/sealed with another key, or altered/);
  expect(message).not.toContain(plain.slice(0, 10));
  expect(message).not.toContain(key.toString('hex'));
});

test('a sealed value bound to one place (aad) does not open in another', () => {
  const sealed = sealSecret(plain, key, 'processor_accounts.api_key:mer_1');
  expect(openSecret(sealed, key, 'processor_accounts.api_key:mer_1')).toBe(plain);
  expect(() => openSecret(sealed, key, 'processor_accounts.api_key:mer_2')).toThrow(/cannot be opened/);
  expect(() => openSecret(sealed, key)).toThrow(/cannot be opened/);
});

test('a secrets key is exactly 64 hexadecimal characters; anything else is a clear error that does not repeat it', () => {
  expect(parseSecretsKey('ab'.repeat(32))).toHaveLength(32);
  for (const bad of [
    '',
    'ab'.repeat(31),
    'ab'.repeat(33),
    `${'ab'.repeat(31)}zz`,
    ` ${'ab'.repeat(32)}`,
    'c2VjcmV0LWtleS1iYXNlNjQtbm90LWhleC1hdC1hbGwtc29ycnk=',
  ]) {
    expect(() => parseSecretsKey(bad)).toThrow(
      'SECRETS_KEY must be exactly 64 hexadecimal characters (32 bytes); generate one with: openssl rand -hex 32',
    );
  }
  expect(() => sealSecret(plain, randomBytes(16))).toThrow(/32 bytes/);
});
