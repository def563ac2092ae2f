import { Arg, Args, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { toConnection, toPageRequest, type ConnectionShape } from '../../platform/relay/connection.js';
import { parseInput } from '../../platform/validation.js';
import { emailFiltersSchema, getEmail, getEmailSettings, listEmails, updateEmailSettings } from './email.service.js';
import {
  EmailConnection,
  EmailNode,
  EmailsArgs,
  EmailSettingsNode,
  UpdateEmailSettingsInput,
  UpdateEmailSettingsPayload,
} from './email.types.js';

/** Settings → Emails and Branding: owners and admins (and secret keys). */
@Authorized('emails')
@Resolver(() => EmailNode)
export class EmailResolver {
  @Query(() => EmailConnection, {
    description: "This mode's email outbox, newest first: every message to shoppers and the team, sent or not",
  })
  async emails(@Args() args: EmailsArgs, @Ctx() { ctx }: GraphContext): Promise<ConnectionShape<EmailNode>> {
    const filters = parseInput(
      emailFiltersSchema,
      {
        kind: args.kind ?? undefined,
        status: args.status ?? undefined,
        to: args.to ?? undefined,
        createdAfter: args.createdAfter ?? undefined,
        createdBefore: args.createdBefore ?? undefined,
      },
      'invalid_request',
    );
    return toConnection(
      await listEmails(
        ctx,
        filters,
        toPageRequest(args, (s) => s),
      ),
      args,
      (m) => EmailNode.from(m),
    );
  }

  @Query(() => EmailNode, { description: 'One message of the outbox (msg_…)' })
  async email(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<EmailNode> {
    return EmailNode.from(await getEmail(ctx, id));
  }

  @Query(() => EmailSettingsNode, { description: 'Branding and which shopper messages are sent' })
  async emailSettings(@Ctx() { ctx }: GraphContext): Promise<EmailSettingsNode> {
    return EmailSettingsNode.from(await getEmailSettings(ctx));
  }

  @Mutation(() => UpdateEmailSettingsPayload, {
    description: 'Change branding (name, support email, logo URL) and turn shopper messages off or on',
  })
  async updateEmailSettings(
    @Arg('input', () => UpdateEmailSettingsInput) input: UpdateEmailSettingsInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<UpdateEmailSettingsPayload> {
    const view = await updateEmailSettings(ctx, {
      ...(input.brandName !== undefined && { brand_name: input.brandName }),
      ...(input.supportEmail !== undefined && { support_email: input.supportEmail }),
      ...(input.logoUrl !== undefined && { logo_url: input.logoUrl }),
      ...(input.businessAddress !== undefined && { business_address: input.businessAddress }),
      ...(input.phone !== undefined && { phone: input.phone }),
      ...(input.disabledEmails != null && { disabled_emails: input.disabledEmails }),
    });
    return { settings: EmailSettingsNode.from(view) };
  }
}
