import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../platform/errors.js';
import type { PublicRoute } from '../../platform/rest/public-routes.js';
import { parseInput } from '../../platform/validation.js';
import { requireCsrf } from './console-session.js';
import { checkCredentials, checkSecondFactor, sessionPrincipal, signInAttemptsPerAddress } from './console-sign-in.js';
import { acceptSetup, checkSetupLink, presentMember } from './team.service.js';
import { beginTwoFactor, confirmTwoFactor } from './two-factor.js';
import type { TeamMember } from './team-member.entity.js';

/**
 * The console's session routes (JSON, outside /api/v2 and its API keys): sign in (password, then
 * TOTP when it is on), sign out, the session (with its CSRF token), the console's mode, the
 * invitation link's password, TOTP enrolment. Everything else the console does goes through
 * /graphql with the session cookie and the CSRF token.
 */

/** Per network address: CONSOLE_SIGN_IN_LIMIT (20) attempts per 15 minutes (each account also locks after 5 failures in a row). */
const signInLimit = {
  max: () => signInAttemptsPerAddress(),
  timeWindow: 15 * 60_000,
  errorResponseBuilder: (_req: FastifyRequest, context: { ttl: number }) => {
    const wait = Math.max(1, Math.ceil(context.ttl / 1000));
    return new DomainError(
      'rate_limit_exceeded',
      `Too many sign-in attempts from this network: try again in ${Math.ceil(wait / 60)} minute(s).`,
      { headers: { 'Retry-After': String(wait) } },
    );
  },
};

/** What the console learns of its session: who, which merchant and mode, and the CSRF token its state-changing requests send. */
function sessionView(req: FastifyRequest, reply: FastifyReply, member: TeamMember) {
  return {
    member: presentMember(member),
    merchant: { id: member.merchant.id, name: member.merchant.getEntity().name },
    livemode: req.session.livemode === true,
    csrf_token: reply.generateCsrf(),
  };
}

/** A fresh session id for a member who just proved who they are (no fixation). */
async function startSession(req: FastifyRequest, reply: FastifyReply, member: TeamMember) {
  await req.session.regenerate();
  req.session.memberId = member.id;
  req.session.livemode = false;
  return sessionView(req, reply, member);
}

/** The signed-in member of a console request (state-changing requests also need the CSRF token). */
async function signedInMember(req: FastifyRequest, orm: Parameters<PublicRoute['handler']>[2]): Promise<TeamMember> {
  const memberId = req.session.memberId;
  const found = memberId ? await sessionPrincipal(orm.em.fork(), memberId, false) : null;
  if (!found) throw new DomainError('unauthorized', 'Sign in to the console first.');
  if (req.method !== 'GET') requireCsrf(req);
  return found.member;
}

export const consoleRoutes: PublicRoute[] = [
  {
    method: 'POST',
    url: '/console/sign-in',
    rateLimit: signInLimit,
    async handler(req, reply, orm) {
      const em = orm.em.fork();
      const { member, secondFactor } = await checkCredentials(em, req.body, req.ip);
      if (!secondFactor) return startSession(req, reply, member);
      await req.session.regenerate();
      req.session.pendingMemberId = member.id;
      req.session.pendingSince = Date.now();
      return { two_factor_required: true };
    },
  },
  {
    method: 'POST',
    url: '/console/sign-in/two-factor',
    rateLimit: signInLimit,
    async handler(req, reply, orm) {
      const member = await checkSecondFactor(
        orm.em.fork(),
        req.session.pendingMemberId,
        req.session.pendingSince,
        req.body,
        req.ip,
      );
      return startSession(req, reply, member);
    },
  },
  {
    method: 'POST',
    url: '/console/sign-out',
    async handler(req) {
      if (req.session.memberId) requireCsrf(req);
      await req.session.destroy();
      return { signed_out: true };
    },
  },
  {
    method: 'GET',
    url: '/console/session',
    async handler(req, reply, orm) {
      return sessionView(req, reply, await signedInMember(req, orm));
    },
  },
  {
    method: 'POST',
    url: '/console/mode',
    async handler(req, _reply, orm) {
      await signedInMember(req, orm);
      const { livemode } = parseInput(z.object({ livemode: z.boolean() }).strict(), req.body);
      req.session.livemode = livemode;
      return { livemode };
    },
  },
  {
    // The setup page asks whether its link still works before it shows the form (no password sent).
    method: 'POST',
    url: '/console/password-setup/check',
    rateLimit: signInLimit,
    async handler(req, _reply, orm) {
      return checkSetupLink(orm.em.fork(), req.body);
    },
  },
  {
    method: 'POST',
    url: '/console/password-setup',
    rateLimit: signInLimit,
    async handler(req, _reply, orm) {
      return { member: await acceptSetup(orm.em.fork(), req.body) };
    },
  },
  {
    method: 'POST',
    url: '/console/two-factor/enroll',
    async handler(req, _reply, orm) {
      const member = await signedInMember(req, orm);
      return beginTwoFactor(orm.em.fork(), member.id);
    },
  },
  {
    method: 'POST',
    url: '/console/two-factor/confirm',
    async handler(req, _reply, orm) {
      const member = await signedInMember(req, orm);
      return confirmTwoFactor(orm.em.fork(), member.id, req.body, req.ip);
    },
  },
];
