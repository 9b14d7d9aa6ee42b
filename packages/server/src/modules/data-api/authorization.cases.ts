import type { OperationCase } from '../../test-support/authorization.js';

/**
 * The data API's operations, for the authorisation coverage. They take only bare JWTs and answer
 * refusals with Cube's 403s, not the platform's 401s, so the shared suite (built on API keys and
 * 401s) does not run them: routes.test.ts checks a missing header, a bad token, another
 * deployment's token and an API key on them instead.
 */
export const ownSuite = { file: 'routes.test.ts', marker: "Authorization header isn't set" };

const PREFIXES = [
  ['', (id: number) => `/d/${id}/cubejs-api/v1`],
  ['branch', (id: number) => `/d/${id}/dev-mode/main/cubejs-api/v1`],
] as const;

const VERBS = [
  ['loadV1Get', 'GET', 'load'],
  ['loadV1', 'POST', 'load'],
  ['sqlV1Get', 'GET', 'sql'],
  ['sqlV1', 'POST', 'sql'],
  ['dryRunV1Get', 'GET', 'dry-run'],
  ['dryRunV1', 'POST', 'dry-run'],
  ['metaV1', 'GET', 'meta'],
  ['cubesqlV1', 'POST', 'cubesql'],
] as const;

export const cases: OperationCase[] = PREFIXES.flatMap(([prefix, base]) =>
  VERBS.map(([name, method, verb]) => ({
    operation: prefix ? `${prefix}${name[0]!.toUpperCase()}${name.slice(1)}` : name,
    method,
    prepare: async () => ({
      url: `${base(1)}/${verb}`,
      ...(method === 'POST' ? { body: { query: verb === 'cubesql' ? 'SELECT 1' : {} } } : {}),
    }),
  })),
);
