import { Field, Float, GraphQLISODateTime, ID, InputType, ObjectType } from 'type-graphql';
import { graphqlEnum, type ValueOf } from '../../platform/graphql/enums.js';
import { mutationPayload } from '../../platform/graphql/user-errors.js';
import type { ApiKeyView, CreatedApiKey } from './api-key.service.js';

/** The base of the API keys mutations' payloads: `userErrors` with these codes. */
const ApiKeyMutationPayload = mutationPayload('ApiKey', ['validation_error', 'invalid_state', 'not_found']);

export const ApiKeyTypeEnum = graphqlEnum(
  'ApiKeyType',
  ['secret', 'restricted'] as const,
  'A secret key may do everything; a restricted key only what its permissions list',
);
export const ApiKeyStatusEnum = graphqlEnum(
  'ApiKeyStatus',
  ['active', 'expiring', 'expired', 'revoked'] as const,
  'expiring: rolled, working until expiresAt',
);
export const KeyModeEnum = graphqlEnum('KeyMode', ['test', 'live'] as const, 'The mode a key works in');

@ObjectType('ApiKey', {
  description: 'An API key of Settings → API keys; its secret is shown once, at creation or roll',
})
export class ApiKeyType {
  @Field(() => ID, { description: 'key_…' }) id!: string;
  @Field() name!: string;
  @Field(() => KeyModeEnum) mode!: ValueOf<typeof KeyModeEnum>;
  @Field(() => ApiKeyTypeEnum) type!: ValueOf<typeof ApiKeyTypeEnum>;
  @Field(() => [String], {
    nullable: true,
    description: 'A restricted key: `orders:read`, `refunds:write`, … (write includes read); null for a secret key',
  })
  permissions!: string[] | null;
  @Field({ description: 'glm_test_AbCd…' }) redactedKey!: string;
  @Field(() => ApiKeyStatusEnum) status!: ValueOf<typeof ApiKeyStatusEnum>;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Last request made with it (to the minute)' })
  lastUsedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) revokedAt!: Date | null;

  static from(v: ApiKeyView): ApiKeyType {
    const date = (s: string | null) => (s === null ? null : new Date(s));
    return Object.assign(new ApiKeyType(), {
      id: v.id,
      name: v.name,
      mode: v.mode,
      type: v.type,
      permissions: v.permissions,
      redactedKey: v.redacted_key,
      status: v.status,
      createdAt: new Date(v.created_at),
      expiresAt: date(v.expires_at),
      lastUsedAt: date(v.last_used_at),
      revokedAt: date(v.revoked_at),
    });
  }
}

@InputType({ description: 'A new key: secret unless permissions are given' })
export class CreateApiKeyInput {
  @Field() name!: string;
  @Field(() => [String], { nullable: true, description: 'A restricted key: `orders:read`, `refunds:write`, …' })
  permissions?: string[] | null;
}

@ObjectType({ description: 'A key just made or rolled: `secret` is shown this once' })
export class ApiKeySecretPayload extends ApiKeyMutationPayload {
  @Field(() => ApiKeyType, { nullable: true }) apiKey!: ApiKeyType | null;
  @Field(() => String, { nullable: true, description: 'The whole key; store it now, it is never shown again' })
  secret!: string | null;
  @Field(() => ApiKeyType, { nullable: true, description: 'A rolled key: the old one, working until its expiresAt' })
  previous!: ApiKeyType | null;

  static from(v: CreatedApiKey & { previous?: ApiKeyView }): ApiKeySecretPayload {
    return Object.assign(new ApiKeySecretPayload(), {
      apiKey: ApiKeyType.from(v.api_key),
      secret: v.secret,
      previous: v.previous ? ApiKeyType.from(v.previous) : null,
    });
  }
}

@ObjectType({ description: 'A revoked key' })
export class RevokeApiKeyPayload extends ApiKeyMutationPayload {
  @Field(() => ApiKeyType, { nullable: true }) apiKey!: ApiKeyType | null;
}

export const ROLL_EXPIRY = {
  type: () => Float,
  description: 'Hours the old key keeps working (default 24, 0 stops it now, at most 168)',
};
