import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { changeTeamMemberRole, inviteTeamMember, listTeamMembers, removeTeamMember } from './team.service.js';
import {
  InviteTeamMemberInput,
  InviteTeamMemberPayload,
  RemoveTeamMemberPayload,
  TeamMemberPayload,
  TeamMemberType,
  TeamRoleEnum,
} from './team.types.js';
import type { ValueOf } from '../../platform/graphql/enums.js';

/** Settings → Team: owners and admins manage it (only owners manage owners), in the console only (never an API key). */
@Authorized('team')
@Resolver(() => TeamMemberType)
export class TeamResolver {
  @Query(() => [TeamMemberType], { description: 'The team, pending invitations included' })
  async teamMembers(@Ctx() { ctx }: GraphContext): Promise<TeamMemberType[]> {
    return (await listTeamMembers(ctx)).map((m) => TeamMemberType.from(m));
  }

  @Mutation(() => InviteTeamMemberPayload, {
    description: 'Invite a member: returns the one-time link that sets their password',
  })
  async inviteTeamMember(
    @Arg('input', () => InviteTeamMemberInput) input: InviteTeamMemberInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<InviteTeamMemberPayload> {
    const { member, setup_url } = await inviteTeamMember(ctx, {
      email: input.email,
      role: input.role,
      ...(input.name != null && { name: input.name }),
      ...(input.credential != null && { credential: input.credential }),
      ...(input.npi != null && { npi: input.npi }),
      ...(input.licensedStates != null && { licensed_states: input.licensedStates }),
    });
    return { member: TeamMemberType.from(member), setupUrl: setup_url };
  }

  @Mutation(() => TeamMemberPayload, { description: "Change a member's role (a team keeps one owner)" })
  async changeTeamMemberRole(
    @Arg('id', () => ID) id: string,
    @Arg('role', () => TeamRoleEnum) role: ValueOf<typeof TeamRoleEnum>,
    @Ctx() { ctx }: GraphContext,
  ): Promise<TeamMemberPayload> {
    return { member: TeamMemberType.from(await changeTeamMemberRole(ctx, id, { role })) };
  }

  @Mutation(() => RemoveTeamMemberPayload, { description: 'Remove a member: their sessions end at their next request' })
  async removeTeamMember(
    @Arg('id', () => ID) id: string,
    @Ctx() { ctx }: GraphContext,
  ): Promise<RemoveTeamMemberPayload> {
    return { removedId: (await removeTeamMember(ctx, id)).id };
  }
}
