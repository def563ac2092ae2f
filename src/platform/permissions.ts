import type { Principal } from './context.js';
import { DomainError } from './errors.js';

/**
 * What a caller may do is a set of `resource:read` / `resource:write` permissions. The platform
 * only checks them; which resources exist, what each key and console role holds, is the domain's
 * (src/modules/merchants/permissions.ts). A principal without a set (a secret key, the system, a
 * hosted page's capability for its one route) may do everything the API offers.
 */
export type Access = 'read' | 'write';

/** The permission `resource` needs for `access`. */
export function permission(resource: string, access: Access): string {
  return `${resource}:${access}`;
}

/** True when `principal` holds `required` (`write` includes `read`, as Stripe's restricted keys). */
export function holds(principal: Principal, required: string): boolean {
  const { permissions } = principal;
  return (
    permissions === undefined ||
    permissions.has(required) ||
    (required.endsWith(':read') && permissions.has(`${required.slice(0, -5)}:write`))
  );
}

/** Throws 403 `insufficient_permissions` naming the missing permission unless `principal` holds it. */
export function requirePermission(principal: Principal, required: string): void {
  if (holds(principal, required)) return;
  const who = principal.actor?.kind === 'user' ? 'Your role' : 'This API key';
  throw new DomainError('insufficient_permissions', `${who} lacks the ${required} permission.`, {
    details: { required_permission: required },
  });
}

/**
 * Throws 403 `insufficient_permissions` (`why`, naming `required`) unless `principal` is a
 * signed-in console user whose role holds `required`: what belongs to console sessions only (API
 * keys, the team, the audit log) is never reached with an API key, whatever its permissions.
 */
export function requireConsoleUser(
  principal: Principal,
  required: string,
  why: string,
): asserts principal is Principal & { actor: { kind: 'user' } } {
  if (principal.actor?.kind !== 'user')
    throw new DomainError('insufficient_permissions', why, { details: { required_permission: required } });
  requirePermission(principal, required);
}
