import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { deploymentsPerWarehouse } from './client-fixtures.js';
import { warehouseKinds } from './policies-fixtures.js';
import { MAX_QUERIES, MAX_QUERY_DEPTH } from './query-input.js';
import { dataDirOverride } from './test-fixtures.js';

/**
 * Malformed and hostile input over real HTTP, on each warehouse: every one is a 4xx whose body is
 * Cube's `{"error": ...}` naming the problem, never a 500 or a hang, and /sql and /dry-run refuse
 * what /load refuses (they plan the same queries; only a value the warehouse cannot cast needs a
 * run to be found). A query goes as `?query=` (URL-encoded JSON) and as a POST body's `query`.
 */
type Verb = 'load' | 'sql' | 'dry-run';
const VERBS: Verb[] = ['load', 'sql', 'dry-run'];

interface Refused {
  name: string;
  /** The query as JSON text, spliced into the URL and the body as it is (a string builder for depths JSON.stringify cannot reach). */
  text: string;
  error: RegExp;
  verbs?: Verb[];
  /** Too long for a URL (Node refuses headers past 16 KiB with a 431, before the server); Cube's client sends these by POST. */
  postOnly?: boolean;
}

const COUNT = '{"measures":["orders.count"]';
const withFilter = (filter: string) => `${COUNT},"filters":[${filter}]}`;
const LEAF = '{"member":"orders.status","operator":"equals","values":["completed"]}';
const nested = (depth: number, group = 'or') => `{"${group}":[`.repeat(depth) + LEAF + ']}'.repeat(depth);
const monthly = (cubeName: string, granularity = 'month') =>
  `{"measures":["${cubeName}.count"],"timeDimensions":[{"dimension":"${cubeName}.created_at","granularity":"${granularity}"}]}`;
const TOO_DEEP = new RegExp(`more than ${MAX_QUERY_DEPTH} levels deep`);

const REFUSED: Refused[] = [
  // Spliced into a body, invalid JSON makes the body invalid; a JSON string given as the body's query is itself read as JSON text.
  { name: 'invalid JSON', text: '{nope', error: /^Invalid query format: |^Request body is not valid JSON/ },
  { name: 'a JSON string', text: '"hello"', error: /^Query must be a JSON object$|^Invalid query format: Unexpected token/ },
  { name: 'a number', text: '42', error: /^Query must be a JSON object$/ },
  { name: 'null', text: 'null', error: /^Query must be a JSON object$/ },
  { name: 'true', text: 'true', error: /^Query must be a JSON object$/ },
  { name: 'an array of numbers', text: '[1,2]', error: /^Query must be a JSON object$/ },
  { name: 'an empty array', text: '[]', error: /^A blending query needs at least one query$/ },
  { name: 'a NUL in a member name', text: '{"measures":["orders.co\\u0000unt"]}', error: /query\.measures\[0\] must not contain a NUL/ },
  {
    name: 'a NUL in a filter value',
    text: withFilter('{"member":"orders.status","operator":"equals","values":["a\\u0000b"]}'),
    error: /query\.filters\[0\]\.values\[0\] must not contain a NUL/,
  },
  { name: 'a NUL in a property name', text: `${COUNT},"\\u0000":1}`, error: /A property name in query must not contain a NUL/ },
  {
    name: 'a lone surrogate',
    text: '{"measures":["orders.\\ud800"]}',
    error: /query\.measures\[0\] must not contain an unpaired UTF-16 surrogate/,
  },
  { name: 'a limit of 1e308', text: `${COUNT},"limit":1e308}`, error: /The query limit has been exceeded: the maximum is/ },
  { name: 'a limit of 1e400 (Infinity)', text: `${COUNT},"limit":1e400}`, error: /query\.limit must be a finite number/ },
  { name: 'a negative limit', text: `${COUNT},"limit":-1}`, error: /"limit" must be a non-negative integer/ },
  { name: 'a limit given as text', text: `${COUNT},"limit":"10"}`, error: /"limit" must be a non-negative integer/ },
  {
    name: 'an offset of 1e20',
    text: `${COUNT},"offset":1e20}`,
    error: /"offset" must be a non-negative integer no larger than 9007199254740991/,
  },
  {
    name: 'a filter value of 1e400 (Infinity)',
    text: withFilter('{"member":"orders.id","operator":"gt","values":[1e400]}'),
    error: /query\.filters\[0\]\.values\[0\] must be a finite number/,
  },
  { name: 'or groups nested 100 deep', text: withFilter(nested(100)), error: TOO_DEEP },
  { name: 'or groups nested 5,000 deep', text: withFilter(nested(5000)), error: TOO_DEEP, postOnly: true },
  { name: 'and groups nested 3,000 deep', text: withFilter(nested(3000, 'and')), error: TOO_DEEP, postOnly: true },
  {
    name: 'arrays nested 5,000 deep as measures',
    text: `{"measures":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    error: TOO_DEEP,
    postOnly: true,
  },
  { name: 'a member name of 5,000 characters', text: `{"measures":["orders.${'x'.repeat(5000)}"]}`, error: /'x{5000}' not found for path/ },
  {
    name: 'a member name of 900,000 characters',
    text: `{"measures":["orders.${'x'.repeat(900_000)}"]}`,
    error: /not found for path 'orders\.x+'$/,
    postOnly: true,
  },
  {
    name: 'an array of 1,000 queries',
    text: `[${Array.from({ length: 1000 }, () => monthly('orders')).join(',')}]`,
    error: new RegExp(`at most ${MAX_QUERIES} queries; this one asks for 1000`),
    postOnly: true,
  },
  {
    name: 'compareDateRange over 1,000 ranges',
    text: `${COUNT},"timeDimensions":[{"dimension":"orders.created_at","compareDateRange":[${Array.from({ length: 1000 }, () => '"today"').join(',')}]}]}`,
    error: new RegExp(`at most ${MAX_QUERIES} queries; this one asks for 1000`),
    postOnly: true,
  },
  {
    name: "'abc' for a number dimension",
    text: withFilter('{"member":"orders.id","operator":"equals","values":["abc"]}'),
    error: /abc/,
    verbs: ['load'],
  },
  {
    name: "'abc' for a date",
    text: withFilter('{"member":"orders.created_at","operator":"afterDate","values":["abc"]}'),
    error: /Can't parse date: 'abc'/,
  },
  { name: 'an unknown cube', text: '{"measures":["nope.count"]}', error: /Cube 'nope' not found for path 'nope\.count'/ },
  { name: 'a member without a cube', text: '{"measures":["count"]}', error: /Cube 'count' not found for path 'count'/ },
  {
    name: 'an unknown filter operator',
    text: withFilter('{"member":"orders.status","operator":"like","values":["a"]}'),
    error: /Unknown filter operator 'like'/,
  },
  {
    name: 'blending without a granularity',
    text: `[${COUNT}},{"measures":["customers.count"]}]`,
    error: /Data blending query without granularity is not supported/,
  },
  {
    name: 'blending across granularities',
    text: `[${monthly('orders')},${monthly('customers', 'day')}]`,
    error: /Data blending query granularities must match/,
  },
  {
    name: 'compareDateRange beside dateRange',
    text: `${COUNT},"timeDimensions":[{"dimension":"orders.created_at","dateRange":"today","compareDateRange":["today"]}]}`,
    error: /not both/,
  },
  { name: 'an unknown key', text: `${COUNT},"surprise":1}`, error: /"surprise" is not allowed/ },
];

/** Bodies refused before their query is read, on every verb. */
const REFUSED_BODIES: Array<[string, string, RegExp, number?]> = [
  ['invalid JSON', '{nope', /Request body is not valid JSON/],
  ['an empty body', '', /Body cannot be empty/],
  ['a string', '"hello"', /body must be an object/],
  ['a number', '42', /body must be an object/],
  ['null', 'null', /body must be an object/],
  ['an array', '[1,2]', /body must be an object/],
  ['no query', '{}', /missing the required property "query"/],
  ['an unknown property', `{"query":${COUNT}},"extra":1}`, /unknown property "extra"/],
  ['a body past 1 MiB', `{"query":{"measures":["orders.${'x'.repeat(1_100_000)}"]}}`, /larger than the 1 MiB limit/, 413],
];

/** Parameters beside the query: load's queryType and cache, and none on sql and dry-run. */
const REFUSED_PARAMETERS: Array<[string, Verb, string, RegExp]> = [
  ['an unknown queryType', 'load', '&queryType=regularQuery', /queryType must be multi/],
  ['an empty queryType', 'load', '&queryType=', /queryType must be multi/],
  ['an unknown cache mode', 'load', '&cache=sometimes', /cache must be/],
  ['a queryType on sql', 'sql', '&queryType=multi', /unknown property "queryType"/],
  ['a cache mode on dry-run', 'dry-run', '&cache=no-cache', /unknown property "cache"/],
];

describeOnStores(
  'malformed input is a 4xx naming the problem, on every verb (issue 12)',
  (server) => {
    const deploymentOn = deploymentsPerWarehouse(server);

    describe.each(warehouseKinds)('on %s', (kind) => {
      const send = async (verb: Verb | 'meta', method: 'GET' | 'POST', tail: string) => {
        const { apiUrl, token } = deploymentOn(kind);
        const response = await fetch(method === 'GET' ? `${apiUrl}/${verb}${tail}` : `${apiUrl}/${verb}`, {
          method,
          headers: { authorization: token, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
          ...(method === 'POST' ? { body: tail } : {}),
        });
        const text = await response.text();
        return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> };
      };
      const expectRefused = (answer: { status: number; text: string; body: Record<string, unknown> }, error: RegExp, status = 400) => {
        expect(answer.status, answer.text.slice(0, 300)).toBe(status);
        expect(Object.keys(answer.body)).toEqual(['error']);
        expect(answer.body['error']).toMatch(error);
      };

      it.each(REFUSED)('$name', async ({ text, error, verbs = VERBS, postOnly }) => {
        // By GET, by POST, and by POST with the query as JSON text (Cube's gateway reads a string query as JSON).
        const ways = [
          ...(postOnly ? [] : [['GET', `?query=${encodeURIComponent(text)}`] as const]),
          ['POST', `{"query":${text}}`] as const,
          ['POST', JSON.stringify({ query: text })] as const,
        ];
        for (const verb of VERBS) {
          for (const [method, tail] of ways) {
            const answer = await send(verb, method, tail);
            if (verbs.includes(verb)) expectRefused(answer, error);
            else expect(answer.status, `${verb} by ${method}: ${answer.text.slice(0, 300)}`).toBe(200);
          }
        }
      });

      it.each(REFUSED_BODIES)('a body that is %s', async (_name, body, error, status) => {
        for (const verb of VERBS) expectRefused(await send(verb, 'POST', body), error, status);
      });

      it.each(REFUSED_PARAMETERS)('%s', async (_name, verb, parameter, error) => {
        expectRefused(await send(verb, 'GET', `?query=${encodeURIComponent(`${COUNT}}`)}${parameter}`), error);
      });

      it('meta refuses parameters it does not take, and a bad onlyViews', async () => {
        expectRefused(await send('meta', 'GET', '?extended'), /unknown property "extended"/);
        expectRefused(await send('meta', 'GET', '?onlyViews=maybe'), /onlyViews must be/);
      });

      it('what is well formed however large is answered: huge numbers, a long value, nesting within the bound, the most queries', async () => {
        const count = async (text: string) => {
          const answer = await send('load', 'POST', `{"query":${text}}`);
          expect(answer.status, answer.text.slice(0, 300)).toBe(200);
          return (answer.body['data'] as Array<Record<string, unknown>>)[0]!['orders.count'];
        };
        expect(await count(withFilter('{"member":"orders.id","operator":"gt","values":[1e308]}'))).toBe('0');
        expect(await count(JSON.stringify(withFilter(LEAF)))).toBe(await count(withFilter(LEAF)));
        expect(await count(withFilter(`{"member":"orders.status","operator":"equals","values":["${'x'.repeat(900_000)}"]}`))).toBe('0');
        // An and/or group takes two levels, the query and its filters list two more.
        const deepest = Math.floor((MAX_QUERY_DEPTH - 4) / 2);
        expect(await count(withFilter(nested(deepest)))).toBe(await count(withFilter(LEAF)));
        const most = await send(
          'load',
          'POST',
          `{"query":[${Array.from({ length: MAX_QUERIES }, () => monthly('orders')).join(',')}],"queryType":"multi"}`,
        );
        expect(most.status, most.text.slice(0, 300)).toBe(200);
        expect(most.body['error'] ?? (most.body['results'] as unknown[]).length).toSatisfy(
          (value) => value === MAX_QUERIES || value === 'Continue wait',
        );
      });
    });
  },
  dataDirOverride(),
);
