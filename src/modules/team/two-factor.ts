import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';
import { DomainError } from '../../platform/errors.js';
import { openSecret, sealSecret } from '../../platform/secrets.js';
import { parseInput } from '../../platform/validation.js';
import { spendRecoveryCode, spendTotpStep } from './sign-in-attempts.js';
import { auditMember as audit, sha256 } from './team.service.js';
import { TeamMember } from './team-member.entity.js';

/** Two-factor sign-in: TOTP enrolment, its recovery codes, and the check of a code. */

const RECOVERY_CODES = 10;

let secretsKey: Buffer | undefined;

/** The key that seals TOTP secrets at rest (SECRETS_KEY; without one they are stored as generated). */
export function configureTwoFactor(key: Buffer | undefined): void {
  secretsKey = key;
}

function totpOf(member: TeamMember): TOTP {
  const stored = member.totpSecret!;
  const base32 =
    stored.startsWith('v1.') && secretsKey
      ? openSecret(stored, secretsKey, `team_members.totp_secret:${member.id}`)
      : stored;
  return new TOTP({
    issuer: 'Health Commerce',
    label: member.email,
    secret: Secret.fromBase32(base32),
    digits: 6,
    period: 30,
  });
}

/** Accepts a current TOTP code (never the same one twice) or an unused recovery code (spent), each spent by one statement however many requests race it. */
export async function acceptCode(em: EntityManager, member: TeamMember, code: string): Promise<boolean> {
  const digits = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) {
    const delta = totpOf(member).validate({ token: digits, window: 1 });
    return delta !== null && spendTotpStep(em, member.id, Math.floor(Date.now() / 30_000) + delta);
  }
  return spendRecoveryCode(em, member.id, sha256(digits.toLowerCase()));
}

/** Starts TOTP enrolment: a new secret (not in force until confirmed with a code). */
export async function beginTwoFactor(
  em: EntityManager,
  memberId: string,
): Promise<{ secret: string; otpauth_uri: string }> {
  const member = await em.findOneOrFail(TeamMember, { id: memberId });
  if (member.totpEnabledAt)
    throw new DomainError('invalid_state', 'Two-factor sign-in is already on for this account.');
  const secret = new Secret({ size: 20 }).base32;
  member.totpSecret = secretsKey ? sealSecret(secret, secretsKey, `team_members.totp_secret:${member.id}`) : secret;
  await em.flush();
  return { secret, otpauth_uri: totpOf(member).toString() };
}

/** Confirms enrolment with a code from the authenticator: two-factor is on; the recovery codes are returned this once. */
export async function confirmTwoFactor(
  em: EntityManager,
  memberId: string,
  input: unknown,
  ip?: string,
): Promise<{ recovery_codes: string[] }> {
  const { code } = parseInput(
    z
      .object({ code: z.string().regex(/^\s*\d{3}\s?\d{3}\s*$/, 'must be the 6-digit code of your authenticator app') })
      .strict(),
    input,
  );
  const member = await em.findOneOrFail(TeamMember, { id: memberId }, { populate: ['merchant'] });
  if (member.totpEnabledAt)
    throw new DomainError('invalid_state', 'Two-factor sign-in is already on for this account.');
  if (!member.totpSecret)
    throw new DomainError('invalid_state', 'Start enrolment first (POST /console/two-factor/enroll).');
  if (!(await acceptCode(em, member, code)))
    throw new DomainError(
      'validation_error',
      'Invalid request: code does not match: check the time on your device and try the current code',
      {
        param: 'code',
        details: [{ field: 'code', message: 'does not match' }],
      },
    );
  const codes = Array.from(
    { length: RECOVERY_CODES },
    () => `${randomBytes(5).toString('hex')}-${randomBytes(5).toString('hex')}`,
  );
  member.recoveryCodeHashes = codes.map(sha256);
  member.totpEnabledAt = new Date();
  audit(em, member, 'console.two_factor_enabled', ip);
  await em.flush();
  return { recovery_codes: codes };
}
