import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';
import type { Principal, ServiceContext } from '../../platform/context.js';
import { randomBase62 } from '../../platform/db/ids.js';
import { DomainError } from '../../platform/errors.js';
import { publicLink } from '../../platform/links.js';
import { requireConsoleUser, requirePermission } from '../../platform/permissions.js';
import { openSecret, sealSecret } from '../../platform/secrets.js';
import { parseInput } from '../../platform/validation.js';
import { merchantPrincipal } from '../merchants/merchant.service.js';
import { ROLE_PERMISSIONS, ROLES, type Role } from '../merchants/permissions.js';
import { auditEntry, type AuditAction } from '../audit/audit-log.service.js';
import { queueEmail } from '../email/email-outbox.js';
import { checkPassword } from './password-policy.js';
import {
  admitAttempt,
  attemptFailed,
  attemptReturned,
  attemptSucceeded,
  LOCK_AFTER_FAILURES,
  LOCK_MINUTES,
  lockEnd,
  spendRecoveryCode,
  spendTotpStep,
} from './sign-in-attempts.js';
import { TeamMember } from './team-member.entity.js';

/** How long an invitation (or the first owner's) link sets a password. */
const SETUP_LINK_DAYS = 7;
/** Time between the password and the second factor. */
const SECOND_FACTOR_MS = 5 * 60_000;
const RECOVERY_CODES = 10;

let secretsKey: Buffer | undefined;
let signInLimit = 20;

/** The key that seals TOTP secrets at rest (SECRETS_KEY; without one they are stored as generated), and sign-in attempts per address per 15 minutes. */
export function configureTeam(settings: { secretsKey?: Buffer; signInLimit: number }): void {
  secretsKey = settings.secretsKey;
  signInLimit = settings.signInLimit;
}

/** Console sign-in attempts allowed per network address per 15 minutes. */
export function signInAttemptsPerAddress(): number {
  return signInLimit;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A team member as the console shows it. */
export interface TeamMemberView {
  id: string;
  object: 'team_member';
  email: string;
  role: Role;
  merchant_id: string;
  two_factor_enabled: boolean;
  /** False while the invitation is pending (no password yet). */
  active: boolean;
  last_sign_in_at: string | null;
  created_at: string;
  /** A clinician's details (null for other roles). */
  clinician: { name: string; credential: string; npi: string; licensed_states: string[] } | null;
}

export function presentMember(m: TeamMember): TeamMemberView {
  return {
    id: m.id,
    object: 'team_member',
    email: m.email,
    role: m.role,
    merchant_id: m.merchant.id,
    two_factor_enabled: Boolean(m.totpEnabledAt),
    active: Boolean(m.passwordHash),
    last_sign_in_at: m.lastSignInAt?.toISOString() ?? null,
    created_at: m.createdAt.toISOString(),
    clinician:
      m.role === 'clinician' && m.name && m.credential && m.npi
        ? { name: m.name, credential: m.credential, npi: m.npi, licensed_states: m.licensedStates ?? [] }
        : null,
  };
}

/** What a clinician's letters name: a name, a credential, a 10-digit NPI and the states they are licensed in. */
const clinicianFields = {
  name: z.string().trim().min(1).max(255).optional(),
  credential: z.string().trim().min(1).max(64).optional(),
  npi: z
    .string()
    .regex(/^\d{10}$/, 'must be a 10-digit NPI')
    .optional(),
  licensed_states: z
    .array(z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter state code'))
    .min(1)
    .max(60)
    .optional(),
};

const inviteSchema = z
  .object({
    email: z
      .email('must be an email address')
      .max(254)
      .transform((e) => e.toLowerCase()),
    role: z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` }),
    ...clinicianFields,
  })
  .strict()
  .superRefine((v, issue) => {
    if (v.role !== 'clinician') return;
    for (const field of ['name', 'credential', 'npi', 'licensed_states'] as const)
      if (v[field] === undefined)
        issue.addIssue({ code: 'custom', path: [field], message: 'is required for a clinician' });
  });

/**
 * Invites `email` to the merchant's team with `role` (or renews a pending invitation): returns
 * the one-time link that sets the password, valid 7 days, and emails it to the invitee (the CLI
 * prints it too).
 */
export async function inviteMember(
  em: EntityManager,
  merchantId: string,
  input: unknown,
  by?: Principal['actor'],
): Promise<{ member: TeamMemberView; setup_url: string }> {
  const { email, role, name, credential, npi, licensed_states } = parseInput(inviteSchema, input);
  const token = randomBase62(40);
  let member = await em.findOne(TeamMember, { email });
  if (member && (member.merchant.id !== merchantId || member.passwordHash)) {
    throw new DomainError('invalid_state', 'That email address already has a console account.', { param: 'email' });
  }
  member ??= em.create(TeamMember, { merchant: merchantId, email, role });
  member.role = role;
  Object.assign(
    member,
    role === 'clinician'
      ? { name, credential, npi, licensedStates: licensed_states }
      : { name: null, credential: null, npi: null, licensedStates: null },
  );
  member.setupTokenHash = sha256(token);
  member.setupTokenExpiresAt = new Date(Date.now() + SETUP_LINK_DAYS * 86_400_000);
  auditEntry(em, {
    merchantId,
    livemode: false,
    actor: by,
    action: 'team_member.invited',
    objectId: member.id,
    details: { email, role },
  });
  const setupUrl = publicLink(`/console/setup?token=${token}`);
  // The invitation email is written with the invitation (the console starts in test mode, as the audit entry).
  queueEmail(
    em,
    { merchantId, livemode: false, at: new Date() },
    { kind: 'team_invitation', to: email, data: { role, setup_url: setupUrl } },
  );
  try {
    await em.flush();
  } catch (err) {
    // The same address invited twice at once: one invitation wins.
    if (err instanceof UniqueConstraintViolationException)
      throw new DomainError(
        'invalid_state',
        'That email address was just invited: use the link already given, or invite again to renew it.',
        { param: 'email' },
      );
    throw err;
  }
  return { member: presentMember(member), setup_url: setupUrl };
}

/** The member an invitation link's token still sets the password of; 404 `not_found` when it is invalid, spent or expired. */
async function memberOfSetupToken(em: EntityManager, token: string): Promise<TeamMember> {
  const member = await em.findOne(TeamMember, {
    setupTokenHash: sha256(token),
    setupTokenExpiresAt: { $gt: new Date() },
  });
  if (!member)
    throw new DomainError(
      'not_found',
      'This link is invalid, was used already, or has expired: ask an owner or admin for a new invitation.',
      { param: 'token' },
    );
  return member;
}

/** Whether an invitation link can still set a password (the page asks before showing its form): the invitee's email. */
export async function checkSetupLink(em: EntityManager, input: unknown): Promise<{ email: string }> {
  const { token } = parseInput(z.object({ token: z.string().min(1).max(200) }).strict(), input);
  return { email: (await memberOfSetupToken(em, token)).email };
}

/** Sets the first password through an invitation link's token (once; the link is spent). */
export async function acceptSetup(em: EntityManager, input: unknown): Promise<TeamMemberView> {
  const { token, password } = parseInput(
    z.object({ token: z.string().min(1).max(200), password: z.string() }).strict(),
    input,
  );
  const member = await memberOfSetupToken(em, token);
  member.passwordHash = await hash(checkPassword(password, member.email));
  member.setupTokenHash = null;
  member.setupTokenExpiresAt = null;
  await em.flush();
  return presentMember(member);
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

/** Puts what a member did in the console in the audit log (test mode's: the console starts there), written with `em`'s next flush. */
function audit(em: EntityManager, member: TeamMember, action: AuditAction, ip?: string): void {
  auditEntry(em, {
    merchantId: member.merchant.id,
    livemode: false,
    actor: { kind: 'user', id: member.id, label: member.email, ip },
    action,
    objectId: member.id,
  });
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
async function acceptCode(em: EntityManager, member: TeamMember, code: string): Promise<boolean> {
  const digits = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) {
    const delta = totpOf(member).validate({ token: digits, window: 1 });
    return delta !== null && spendTotpStep(em, member.id, Math.floor(Date.now() / 30_000) + delta);
  }
  return spendRecoveryCode(em, member.id, sha256(digits.toLowerCase()));
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

/** The console account of the demo merchant's owner, made on first start. */
export const DEMO_OWNER_EMAIL = 'owner@example.com';

/** The demo merchant's owner (first start): a one-time link to set the password, like an invitation. */
export async function inviteFirstOwner(em: EntityManager, merchantId: string, email: string): Promise<string> {
  return (await inviteMember(em, merchantId, { email, role: 'owner' })).setup_url;
}

/** Who may manage `role`: only an owner grants, changes or removes the owner role. */
function assertMayManage(ctx: ServiceContext, role: Role): void {
  requireConsoleUser(
    ctx.principal,
    'team:write',
    'The team is managed in the console by a signed-in owner or admin, not with an API key.',
  );
  if (role === 'owner') requirePermission(ctx.principal, 'owners:write');
}

/** The merchant's team, invitations pending included. */
export async function listTeamMembers(ctx: ServiceContext): Promise<TeamMemberView[]> {
  requireConsoleUser(
    ctx.principal,
    'team:read',
    "The team (its members' email addresses) is read in the console by a signed-in member whose role holds team:read, not with an API key.",
  );
  const members = await ctx.em.find(
    TeamMember,
    { merchant: ctx.principal.merchantId },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 500 },
  );
  return members.map(presentMember);
}

/** Invites a member from the console (owner or admin); returns the link to hand over, once. */
export async function inviteTeamMember(
  ctx: ServiceContext,
  input: unknown,
): Promise<{ member: TeamMemberView; setup_url: string }> {
  const role = (input as { role?: unknown } | null)?.role;
  assertMayManage(ctx, role === 'owner' ? 'owner' : 'viewer');
  return inviteMember(ctx.em, ctx.principal.merchantId, input, ctx.principal.actor);
}

async function memberOf(ctx: ServiceContext, id: string): Promise<TeamMember> {
  const member =
    typeof id === 'string' &&
    (await ctx.em.findOne(TeamMember, { id, merchant: ctx.principal.merchantId }, { populate: ['merchant'] }));
  if (!member) throw new DomainError('not_found', `No team member ${String(id)}.`, { param: 'id' });
  return member;
}

/** Changes a member's role; the last owner keeps theirs. */
export async function changeTeamMemberRole(ctx: ServiceContext, id: string, input: unknown): Promise<TeamMemberView> {
  const { role } = parseInput(
    z.object({ role: z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` }) }).strict(),
    input,
  );
  const member = await memberOf(ctx, id);
  assertMayManage(ctx, member.role === 'owner' || role === 'owner' ? 'owner' : role);
  if (member.role === 'owner' && role !== 'owner') await assertAnotherOwner(ctx, member);
  member.role = role;
  auditEntry(ctx.em, {
    merchantId: ctx.principal.merchantId,
    livemode: ctx.principal.livemode,
    actor: ctx.principal.actor,
    action: 'team_member.role_changed',
    objectId: member.id,
    details: { role },
  });
  await ctx.em.flush();
  return presentMember(member);
}

/** Removes a member: their sessions stop working at their next request. The last owner stays. */
export async function removeTeamMember(ctx: ServiceContext, id: string): Promise<{ id: string; deleted: true }> {
  const member = await memberOf(ctx, id);
  assertMayManage(ctx, member.role);
  if (member.role === 'owner') await assertAnotherOwner(ctx, member);
  auditEntry(ctx.em, {
    merchantId: ctx.principal.merchantId,
    livemode: ctx.principal.livemode,
    actor: ctx.principal.actor,
    action: 'team_member.removed',
    objectId: member.id,
    details: { email: member.email },
  });
  ctx.em.remove(member);
  await ctx.em.flush();
  return { id, deleted: true };
}

async function assertAnotherOwner(ctx: ServiceContext, member: TeamMember): Promise<void> {
  const owners = await ctx.em.count(TeamMember, {
    merchant: ctx.principal.merchantId,
    role: 'owner',
    id: { $ne: member.id },
    passwordHash: { $ne: null },
  });
  if (owners === 0)
    throw new DomainError('invalid_state', 'A team keeps at least one owner: make someone else owner first.', {
      param: 'id',
    });
}
