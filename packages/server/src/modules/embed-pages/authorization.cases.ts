import type { OperationCase } from '../../test-support/authorization.js';

/**
 * getEmbedContext takes embed tokens only, which the shared suite (built on API keys) cannot
 * mint, so context.test.ts checks each credential on it instead: a missing header, a bad or
 * another account's token, a data API token, an access token and an API key.
 */
export const ownSuite = { file: 'context.test.ts', marker: 'getEmbedContext refuses' };

export const cases: OperationCase[] = [
  { operation: 'getEmbedContext', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/embed/context' }) },
];
