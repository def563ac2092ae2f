import type { ServiceContext } from '../context.js';

/** What every resolver receives: the service context of the request or websocket operation. */
export interface GraphContext {
  ctx: ServiceContext;
}
