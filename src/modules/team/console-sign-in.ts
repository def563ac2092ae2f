import { hash, verify } from '@node-rs/argon2';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Principal } from '../../platform/context.js';
import { randomBase62 } from '../../platform/db/ids.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput } from '../../platform/validation.js';
import { merchantPrincipal } from '../merchants/merchant.service.js';
import { ROLE_PERMISSIONS } from '../merchants/permissions.js';
import {
  admitAttempt,
  attemptFailed,
  attemptReturned,
  attemptSucceeded,
  LOCK_AFTER_FAILURES,
  LOCK_MINUTES,
  lockEnd,
} from './sign-in-attempts.js';
import { acceptCode, configureTwoFactor } from './two-factor.js';
import { auditMember as audit } from './team.service.js';
import { TeamMember } from './team-member.entity.js';

/** Console sign-in: the password, then the second factor when it is on; the caller a session stands for. */

/** Time between the password and the second factor. */
const SECOND_FACTOR_MS = 5 * 60_000;

let signInLimit = 20;

/** The key that seals TOTP secrets at rest (SECRETS_KEY; without one they are stored as generated), and sign-in attempts per address per 15 minutes. */
export function configureTeam(settings: { secretsKey?: Buffer; signInLimit: number }): void {
  configureTwoFactor(settings.secretsKey);
  signInLimit = settings.signInLimit;
}

/** Console sign-in attempts allowed per network address per 15 minutes. */
export function signInAttemptsPerAddress(): number {
  return signInLimit;
}

const signInSchema = z.object({ email: z.string().max(254), password: z.string().max(1024) }).strict();

// Compared against when the email is unknown, so an unknown address takes as long as a wrong password.
let decoy: Promise<string> | undefined;

function lockedError(until: Date): DomainError {
  const wait = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new DomainError(
    'rate_limit_exceeded',
    `Too many failed sign-ins: this account is locked for ${Math.ceil(wait / 60)} more minute(s) (${LOCK_AFTER_FAILURES} failures in a row lock it for ${LOCK_MINUTES} minutes). Try again later or ask an admin.`,
    { headers: { 'Retry-After': String(wait) } },
  );
}

/** Locks out a caller that was refused, and audits the lock when this attempt made it. */
async function refusedLocked(
  em: EntityManager,
  member: TeamMember,
  until: Date,
  lockedNow: boolean,
  ip?: string,
): Promise<never> {
  if (lockedNow) {
    audit(em, member, 'console.locked_out', ip);
    await em.flush();
  }
  throw lockedError(until);
}

/** Counts the attempt against the account before its password or code is checked (sign-in-attempts.ts): a locked account is refused here. */
async function admit(em: EntityManager, member: TeamMember, ip?: string): Promise<void> {
  const admission = await admitAttempt(em, member.id);
  if (!admission.admitted) await refusedLocked(em, member, admission.lockedUntil, admission.lockedNow, ip);
}

/** An admitted attempt failed; the one that leaves the count at the limit locks the account. */
async function failed(em: EntityManager, member: TeamMember, ip?: string): Promise<never> {
  const locked = await attemptFailed(em, member.id);
  if (locked) await refusedLocked(em, member, locked, true, ip);
  audit(em, member, 'console.sign_in_failed', ip);
  await em.flush();
  throw new DomainError('unauthorized', 'Wrong email, password or code.');
}

/**
 * Checks an email and password. A locked account is refused before its password is looked at.
 * Returns the member, and whether the second factor is still to come.
 */
export async function checkCredentials(
  em: EntityManager,
  input: unknown,
  ip?: string,
): Promise<{ member: TeamMember; secondFactor: boolean }> {
  const { email, password } = parseInput(signInSchema, input);
  const member = await em.findOne(TeamMember, { email: email.trim().toLowerCase() }, { populate: ['merchant'] });
  if (!member?.passwordHash) {
    await verify(await (decoy ??= hash(randomBase62(16))), password).catch(() => false);
    throw new DomainError('unauthorized', 'Wrong email, password or code.');
  }
  await admit(em, member, ip);
  if (!(await verify(member.passwordHash, password).catch(() => false))) return failed(em, member, ip);
  const secondFactor = Boolean(member.totpEnabledAt);
  if (secondFactor) await attemptReturned(em, member.id);
  else await signedIn(em, member, ip);
  return { member, secondFactor };
}

/** An admitted attempt succeeded: signed in, unless attempts that failed meanwhile locked the account. */
async function signedIn(em: EntityManager, member: TeamMember, ip?: string): Promise<void> {
  const at = await attemptSucceeded(em, member.id);
  if (!at) throw lockedError(await lockEnd(em, member.id));
  audit(em, member, 'console.signed_in', ip);
  await em.flush();
  member.lastSignInAt = at;
}

/** The second step of a sign-in: the TOTP or a recovery code of the member whose password was right (within 5 minutes). */
export async function checkSecondFactor(
  em: EntityManager,
  memberId: string | undefined,
  since: number | undefined,
  input: unknown,
  ip?: string,
): Promise<TeamMember> {
  const { code } = parseInput(z.object({ code: z.string().min(1).max(40) }).strict(), input);
  if (!memberId || !since || Date.now() - since > SECOND_FACTOR_MS)
    throw new DomainError(
      'unauthorized',
      'Sign in with your email and password first (the code step lasts 5 minutes).',
    );
  const member = await em.findOne(TeamMember, { id: memberId }, { populate: ['merchant'] });
  if (!member?.totpEnabledAt) throw new DomainError('unauthorized', 'Sign in with your email and password first.');
  await admit(em, member, ip);
  if (!(await acceptCode(em, member, code))) return failed(em, member, ip);
  await signedIn(em, member, ip);
  return member;
}

/** The caller a console session stands for: the member's merchant, the mode the console shows, the role's permissions. */
export async function sessionPrincipal(
  em: EntityManager,
  memberId: string,
  livemode: boolean,
): Promise<{ principal: Principal; member: TeamMember } | null> {
  const member = await em.findOne(TeamMember, { id: memberId }, { populate: ['merchant'] });
  if (!member?.passwordHash) return null;
  const principal = merchantPrincipal(member.merchant.getEntity(), livemode, {
    keyId: member.id,
    actor: { kind: 'user', id: member.id, label: member.email },
    permissions: ROLE_PERMISSIONS[member.role],
  });
  return { principal, member };
}
