import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../platform/graphql/context.js';
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from './api-key.service.js';
import {
  ApiKeySecretPayload,
  ApiKeyType,
  CreateApiKeyInput,
  RevokeApiKeyPayload,
  ROLL_EXPIRY,
} from './api-key.types.js';

/** Settings → API keys: console users only (a key never manages keys). */
@Authorized('api_keys')
@Resolver(() => ApiKeyType)
export class ApiKeyResolver {
  @Query(() => [ApiKeyType], { description: "This mode's API keys, newest first (revoked and expired ones too)" })
  async apiKeys(@Ctx() { ctx }: GraphContext): Promise<ApiKeyType[]> {
    return (await listApiKeys(ctx)).map((k) => ApiKeyType.from(k));
  }

  @Mutation(() => ApiKeySecretPayload, {
    description: 'Create a secret key, or a restricted one with permissions; the secret is returned once',
  })
  async createApiKey(
    @Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ApiKeySecretPayload> {
    return ApiKeySecretPayload.from(await createApiKey(ctx, { name: input.name, permissions: input.permissions }));
  }

  @Mutation(() => ApiKeySecretPayload, {
    description: 'Roll a key: a successor (secret returned once); the old key works for expiresInHours more',
  })
  async rollApiKey(
    @Arg('id', () => ID) id: string,
    @Arg('expiresInHours', ROLL_EXPIRY.type, { nullable: true, description: ROLL_EXPIRY.description })
    expiresInHours: number | null,
    @Ctx() { ctx }: GraphContext,
  ): Promise<ApiKeySecretPayload> {
    return ApiKeySecretPayload.from(
      await rollApiKey(
        ctx,
        id,
        expiresInHours === null || expiresInHours === undefined ? {} : { expires_in_hours: expiresInHours },
      ),
    );
  }

  @Mutation(() => RevokeApiKeyPayload, { description: 'Revoke a key: refused by every API process within a second' })
  async revokeApiKey(@Arg('id', () => ID) id: string, @Ctx() { ctx }: GraphContext): Promise<RevokeApiKeyPayload> {
    return { apiKey: ApiKeyType.from(await revokeApiKey(ctx, id)) };
  }
}
