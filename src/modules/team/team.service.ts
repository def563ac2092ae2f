import { createHash } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Principal, ServiceContext } from '../../platform/context.js';
import { randomBase62 } from '../../platform/db/ids.js';
import { DomainError } from '../../platform/errors.js';
import { publicLink } from '../../platform/links.js';
import { requireConsoleUser, requirePermission } from '../../platform/permissions.js';
import { parseInput } from '../../platform/validation.js';
import { ROLES, type Role } from '../merchants/permissions.js';
import { auditEntry, type AuditAction } from '../audit/audit-log.service.js';
import { queueEmail } from '../email/email-outbox.js';
import { checkPassword } from './password-policy.js';
import { TeamMember } from './team-member.entity.js';

/**
 * The team: its members, their invitations and the link that sets a first password. Signing in
 * is console-sign-in.ts, two-factor enrolment and codes two-factor.ts.
 */

/** How long an invitation (or the first owner's) link sets a password. */
const SETUP_LINK_DAYS = 7;

/** The hex SHA-256 of a token or a recovery code, as stored. */
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

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
/** Puts what a member did in the console in the audit log (test mode's: the console starts there), written with `em`'s next flush. */
export function auditMember(em: EntityManager, member: TeamMember, action: AuditAction, ip?: string): void {
  auditEntry(em, {
    merchantId: member.merchant.id,
    livemode: false,
    actor: { kind: 'user', id: member.id, label: member.email, ip },
    action,
    objectId: member.id,
  });
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
