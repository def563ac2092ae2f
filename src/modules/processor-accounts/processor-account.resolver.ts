import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { readProcessorConfiguration } from './processor-account.service.js';
import { ProcessorConfigurationType } from './processor-account.types.js';

@Authorized('processor_accounts')
@Resolver(() => ProcessorConfigurationType)
export class ProcessorConfigurationResolver {
  @Query(() => ProcessorConfigurationType, {
    nullable: true,
    description: "The merchant's card processor configuration, secrets masked; null when none is set",
  })
  async processorConfiguration(@Ctx() { ctx }: GraphContext): Promise<ProcessorConfigurationType | null> {
    const view = await readProcessorConfiguration(ctx);
    return view && ProcessorConfigurationType.from(view);
  }
}
