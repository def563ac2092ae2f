import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { GraphQLISODateTime } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { connectionType, CreatedRangeArgs } from '../../platform/relay/connection.js';
import { AUDIT_ACTIONS } from './audit-log.service.js';
import type { AuditLogEntry } from './audit-log.entity.js';

export const AuditActionEnum = graphqlEnum('AuditAction', AUDIT_ACTIONS, 'A change the audit log records');
export const AuditActorKindEnum = graphqlEnum(
  'AuditActorKind',
  ['user', 'key', 'system'] as const,
  'A console member, an API key, or the service itself (CLI, sweeps)',
);

@ObjectType('AuditLogEntry', { description: 'One change that matters: who, what, to which object, when, from where' })
export class AuditLogEntryNode {
  @Field(() => ID, { description: 'aud_…' }) id!: string;
  @Field(() => AuditActionEnum) action!: ValueOf<typeof AuditActionEnum>;
  @Field(() => AuditActorKindEnum) actorKind!: ValueOf<typeof AuditActorKindEnum>;
  @Field(() => String, { nullable: true, description: 'usr_… or key_…' }) actorId!: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The member's email or the key's name and prefix, as they were then",
  })
  actorLabel!: string | null;
  @Field(() => String, { nullable: true }) ipAddress!: string | null;
  @Field(() => String, { nullable: true, description: 'The object changed (re_…, we_…, key_…)' }) objectId!:
    string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) details!: Record<string, unknown> | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;

  static from(e: AuditLogEntry): AuditLogEntryNode {
    return Object.assign(new AuditLogEntryNode(), {
      id: e.id,
      action: e.action,
      actorKind: e.actorKind,
      actorId: e.actorId ?? null,
      actorLabel: e.actorLabel ?? null,
      ipAddress: e.ipAddress ?? null,
      objectId: e.objectId ?? null,
      details: e.details ?? null,
      createdAt: e.createdAt,
    });
  }
}

export const AuditLogConnection = connectionType('AuditLogEntry', AuditLogEntryNode);

@ArgsType()
export class AuditLogArgs extends CreatedRangeArgs {
  @Field(() => AuditActionEnum, { nullable: true }) action?: ValueOf<typeof AuditActionEnum> | null;
  @Field(() => String, { nullable: true, description: 'Only what this member or key did' }) actorId?: string | null;
  @Field(() => String, { nullable: true, description: 'Only changes to this object' }) objectId?: string | null;
}
