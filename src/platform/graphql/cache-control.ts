import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';

/**
 * Every GraphQL answer is `Cache-Control: no-store` (the graph declares no cache hints, so
 * Apollo's cache-control plugin always concluded that), without that plugin's hook on every
 * resolved field.
 */
export function noStoreCacheControl(): ApolloServerPlugin[] {
  return [
    ApolloServerPluginCacheControlDisabled(),
    {
      requestDidStart() {
        return Promise.resolve({
          willSendResponse({ response }) {
            response.http.headers.set('cache-control', 'no-store');
            return Promise.resolve();
          },
        });
      },
    },
  ];
}
