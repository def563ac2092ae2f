import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Principal, ServiceContext } from '../../platform/context.js';
import { requireConsoleUser } from '../../platform/permissions.js';
import { createdBetween, paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { AuditLogEntry } from './audit-log.entity.js';

/** Every action the audit log records, in one place. */
export const AUDIT_ACTIONS = [
  'console.signed_in',
  'console.sign_in_failed',
  'console.locked_out',
  'console.two_factor_enabled',
  'team_member.invited',
  'team_member.role_changed',
  'team_member.removed',
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.enabled',
  'webhook_endpoint.disabled',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.recovered',
  'refund.created',
  'payment_link.cancelled',
  'subscription.cancelled',
  'subscription.resumed',
  'email_settings.updated',
  'lmn_review.approved',
  'lmn_review.declined',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

interface AuditRecord {
  merchantId: string;
  livemode: boolean;
  actor: Principal['actor'];
  action: AuditAction;
  objectId?: string | null;
  details?: Record<string, unknown>;
}

/** Adds an entry to `em`'s unit of work (it is written with the change it records, by the caller's flush). */
export function auditEntry(em: EntityManager, r: AuditRecord): AuditLogEntry {
  return em.create(AuditLogEntry, {
    merchant: r.merchantId,
    livemode: r.livemode,
    action: r.action,
    actorKind: r.actor?.kind ?? 'system',
    actorId: r.actor?.id ?? null,
    actorLabel: r.actor?.label ?? null,
    ipAddress: r.actor?.ip ?? null,
    objectId: r.objectId ?? null,
    details: r.details ?? null,
  });
}

/** Records that the caller did `action` to `objectId`, written with the caller's next flush. */
export function recordAudit(
  ctx: ServiceContext,
  action: AuditAction,
  objectId?: string | null,
  details?: Record<string, unknown>,
): void {
  auditEntry(ctx.em, {
    merchantId: ctx.principal.merchantId,
    livemode: ctx.principal.livemode,
    actor: ctx.principal.actor,
    action,
    objectId,
    details,
  });
}

export const auditFiltersSchema = z
  .object({
    action: z.enum(AUDIT_ACTIONS, { message: 'must be one of the audit log actions' }).optional(),
    actorId: z.string().max(255).optional(),
    objectId: z.string().max(255).optional(),
    createdAfter: z.date().optional(),
    createdBefore: z.date().optional(),
  })
  .strict();

/** A page of the caller's mode's audit log, newest first, with the console's filters. */
export async function listAuditLog(
  ctx: ServiceContext,
  filters: z.output<typeof auditFiltersSchema>,
  page: PageRequest<string>,
): Promise<Page<AuditLogEntry>> {
  requireConsoleUser(
    ctx.principal,
    'audit_log:read',
    'The audit log is read in the console (Settings → Audit log) by a signed-in member whose role holds audit_log:read, not with an API key.',
  );
  const created = createdBetween(filters);
  return paginate(
    ctx,
    AuditLogEntry,
    {
      merchant: ctx.principal.merchantId,
      livemode: ctx.principal.livemode,
      ...(filters.action && { action: filters.action }),
      ...(filters.actorId && { actorId: filters.actorId }),
      ...(filters.objectId && { objectId: filters.objectId }),
      ...(created && { createdAt: created }),
    },
    page,
    { cursorParam: 'after', beforeParam: 'before' },
  );
}
