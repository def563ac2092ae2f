import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random bytes drawn a page at a time (one system call per 4 KiB, not one per id). */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++];
}

/** Random base62 string of `length` characters (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** A prefixed public id as the spec names them: `prefixedId('evt')` → `evt_…` (24 random chars). */
export function prefixedId(prefix: string): string {
  return `${prefix}_${randomBase62(24)}`;
}
