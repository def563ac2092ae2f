import { DomainError } from '../../platform/errors.js';
import { COMMON_PASSWORDS } from './common-passwords.js';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/**
 * The one password rule of the console (NIST SP 800-63B's: length, not composition): 12 to 256
 * characters, not one of the passwords most often found in breaches (a shipped list, also with
 * digits or symbols appended: `password1234`, `monkey2024!`), and not the email address.
 */
export function checkPassword(password: unknown, email: string): string {
  const fail = (message: string) =>
    new DomainError('validation_error', `Invalid request: password ${message}`, {
      param: 'password',
      details: [{ field: 'password', message }],
    });
  if (typeof password !== 'string') throw fail('must be a string');
  if ([...password].length < MIN_PASSWORD_LENGTH) throw fail(`must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw fail(`must be at most ${MAX_PASSWORD_LENGTH} characters`);
  const lower = password.toLowerCase();
  const stem = lower.replace(/[\d\s!.@#$%^&*?_-]+$/, '');
  if (COMMON_PASSWORDS.has(lower) || COMMON_PASSWORDS.has(stem) || /^(.)\1+$/.test(password))
    throw fail('is one of the most common passwords found in breaches: choose another');
  const local = email.toLowerCase().split('@')[0];
  if (lower === email.toLowerCase() || (local.length >= 6 && lower.includes(local)))
    throw fail('must not contain your email address');
  return password;
}
