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
  'owner, admin: everything (only owners manage owners); developer: keys, webhooks; support: orders, refunds, links, subscriptions, customers, and read webhooks and events; viewer: read only; clinician: decides letters of medical necessity (LMN reviews) and reads orders and customers',
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
  @Field(() => String, { nullable: true, description: "A clinician's name" }) name!: string | null;
  @Field(() => String, { nullable: true, description: "A clinician's credential (MD, DO, NP, PA…)" }) credential!:
    string | null;
  @Field(() => String, { nullable: true, description: "A clinician's 10-digit NPI" }) npi!: string | null;
  @Field(() => [String], { nullable: true, description: 'The states a clinician is licensed in' }) licensedStates!:
    string[] | null;

  static from(v: TeamMemberView): TeamMemberType {
    return Object.assign(new TeamMemberType(), {
      id: v.id,
      email: v.email,
      role: v.role,
      twoFactorEnabled: v.two_factor_enabled,
      active: v.active,
      lastSignInAt: v.last_sign_in_at ? new Date(v.last_sign_in_at) : null,
      createdAt: new Date(v.created_at),
      name: v.clinician?.name ?? null,
      credential: v.clinician?.credential ?? null,
      npi: v.clinician?.npi ?? null,
      licensedStates: v.clinician?.licensed_states ?? null,
    });
  }
}

@InputType()
export class InviteTeamMemberInput {
  @Field() email!: string;
  @Field(() => TeamRoleEnum) role!: ValueOf<typeof TeamRoleEnum>;
  @Field(() => String, { nullable: true, description: 'Clinicians: name' }) name?: string;
  @Field(() => String, { nullable: true, description: 'Clinicians: credential (MD, DO, NP, PA…)' }) credential?: string;
  @Field(() => String, { nullable: true, description: 'Clinicians: 10-digit NPI' }) npi?: string;
  @Field(() => [String], {
    nullable: true,
    description: 'Clinicians: two-letter codes of the states they are licensed in',
  })
  licensedStates?: string[];
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
