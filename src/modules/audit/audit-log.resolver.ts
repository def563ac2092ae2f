import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { parseInput } from '../../platform/validation.js';
import { auditFiltersSchema, listAuditLog } from './audit-log.service.js';
import { AuditLogArgs, AuditLogConnection, AuditLogEntryNode } from './audit-log.types.js';

/** Settings → Audit: owners and admins, in the console only (never an API key). */
@Authorized('audit_log')
@Resolver(() => AuditLogEntryNode)
export class AuditLogResolver {
  @Query(() => AuditLogConnection, {
    description: "This mode's audit log, newest first: sign-ins, keys, endpoints, refunds, cancellations",
  })
  async auditLog(
    @Args() args: AuditLogArgs,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ConnectionShape<AuditLogEntryNode>> {
    const filters = parseInput(
      auditFiltersSchema,
      {
        action: args.action ?? undefined,
        actorId: args.actorId ?? undefined,
        objectId: args.objectId ?? undefined,
        createdAfter: args.createdAfter ?? undefined,
        createdBefore: args.createdBefore ?? undefined,
      },
      'invalid_request',
    );
    return toConnection(
      await listAuditLog(
        ctx,
        filters,
        toPageRequest(args, (s) => s),
      ),
      args,
      (e) => AuditLogEntryNode.from(e),
    );
  }
}
