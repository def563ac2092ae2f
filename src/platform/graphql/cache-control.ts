import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';

/**
 * Every GraphQL answer is `Cache-Control: no-store` (the graph declares no cache hints, so
 * Apollo's cache-control plugin always concluded that), without that plugin's hook on every
 * resolved field.
 */
export function noStoreCacheControl(): ApolloServerPlugin[] {
  // The hooks hold no state of a request: one object serves them all.
  const hooks: GraphQLRequestListener<BaseContext> = {
    willSendResponse({ response }) {
      response.http.headers.set('cache-control', 'no-store');
      return Promise.resolve();
    },
  };
  return [ApolloServerPluginCacheControlDisabled(), { requestDidStart: () => Promise.resolve(hooks) }];
}
