import { Field, GraphQLISODateTime, ObjectType } from 'type-graphql';
import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { PROCESSOR_PROVIDERS } from './processor-account.entity.js';
import type { ProcessorConfigurationView } from './processor-account.service.js';

export const ProcessorProviderEnum = graphqlEnum(
  'ProcessorProvider',
  PROCESSOR_PROVIDERS,
  'A card processor live mode charges through',
);
export const AdyenEnvironmentEnum = graphqlEnum(
  'AdyenEnvironment',
  ['test', 'live'] as const,
  "Adyen's test platform or its live one",
);

@ObjectType('ProcessorConfiguration', {
  description:
    "The merchant's card processor configuration; the API key and HMAC key are masked to their last 4 characters",
})
export class ProcessorConfigurationType {
  @Field(() => ProcessorProviderEnum) provider!: ValueOf<typeof ProcessorProviderEnum>;
  @Field({ description: "The processor's merchant account name" }) merchantAccount!: string;
  @Field({ description: '**** and the last 4 characters' }) apiKey!: string;
  @Field({ description: 'Public (Adyen Web uses it in the browser): shown whole' }) clientKey!: string;
  @Field({ description: '**** and the last 4 characters' }) hmacKey!: string;
  @Field(() => String, {
    nullable: true,
    description: "Prefix of the merchant's live Checkout endpoints (Adyen's live platform)",
  })
  liveUrlPrefix!: string | null;
  @Field(() => AdyenEnvironmentEnum, { description: "The Adyen platform this service's live mode uses" })
  environment!: ValueOf<typeof AdyenEnvironmentEnum>;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;

  static from(v: ProcessorConfigurationView): ProcessorConfigurationType {
    return Object.assign(new ProcessorConfigurationType(), {
      provider: v.provider,
      merchantAccount: v.merchant_account,
      apiKey: v.api_key,
      clientKey: v.client_key,
      hmacKey: v.hmac_key,
      liveUrlPrefix: v.live_url_prefix,
      environment: v.environment,
      updatedAt: new Date(v.updated_at),
    });
  }
}
