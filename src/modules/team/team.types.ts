import { Field, GraphQLISODateTime, ID, InputType, ObjectType } from 'type-graphql';
import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { ROLES } from '../merchants/permissions.js';
import type { TeamMemberView } from './team.service.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';

/** The base of the team mutations' payloads: `userErrors` with these codes. */
const TeamMutationPayload = mutationPayload('Team', ['validation_error', 'invalid_state', 'not_found']);

export const TeamRoleEnum = graphqlEnum(
  'TeamRole',
  ROLES,
  'owner, admin: everything (only owners manage owners); developer: keys, webhooks; support: orders, refunds, links, subscriptions, customers, and read webhooks and events; viewer: read only',
);

@ObjectType('TeamMember', { description: 'A member of the merchant team who signs in to the console' })
export class TeamMemberType {
  @Field(() => ID, { description: 'usr_…' }) id!: string;
  @Field() email!: string;
  @Field(() => TeamRoleEnum) role!: ValueOf<typeof TeamRoleEnum>;
  @Field() twoFactorEnabled!: boolean;
  @Field({ description: 'False while the invitation is pending' }) active!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastSignInAt!: Date | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;

  static from(v: TeamMemberView): TeamMemberType {
    return Object.assign(new TeamMemberType(), {
      id: v.id,
      email: v.email,
      role: v.role,
      twoFactorEnabled: v.two_factor_enabled,
      active: v.active,
      lastSignInAt: v.last_sign_in_at ? new Date(v.last_sign_in_at) : null,
      createdAt: new Date(v.created_at),
    });
  }
}

@InputType()
export class InviteTeamMemberInput {
  @Field() email!: string;
  @Field(() => TeamRoleEnum) role!: ValueOf<typeof TeamRoleEnum>;
}

@ObjectType({ description: 'An invitation: hand the link to the new member (shown once; valid 7 days)' })
export class InviteTeamMemberPayload extends TeamMutationPayload {
  @Field(() => TeamMemberType, { nullable: true }) member!: TeamMemberType | null;
  @Field(() => String, { nullable: true }) setupUrl!: string | null;
}

@ObjectType()
export class TeamMemberPayload extends TeamMutationPayload {
  @Field(() => TeamMemberType, { nullable: true }) member!: TeamMemberType | null;
}

@ObjectType()
export class RemoveTeamMemberPayload extends TeamMutationPayload {
  @Field(() => ID, { nullable: true }) removedId!: string | null;
}
