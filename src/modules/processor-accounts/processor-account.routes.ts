import type { RouteSpec } from '../../platform/rest/routes.js';
import { processorConfigurationResponse } from './processor-account.openapi.js';
import { getProcessorConfiguration } from './processor-account.service.js';

/** `/api/v2/processor_configuration`: the merchant's processor configuration, secrets masked (set with the CLI). */
export const processorAccountRoutes: RouteSpec[] = [
  {
    method: 'GET',
    url: '/api/v2/processor_configuration',
    operationId: 'getProcessorConfiguration',
    summary: "The merchant's card processor configuration (Adyen), its API and HMAC keys masked; 404 when none is set",
    tags: ['Processor configuration'],
    response: processorConfigurationResponse,
    handler: (ctx) => getProcessorConfiguration(ctx),
  },
];
