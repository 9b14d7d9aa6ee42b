import { bodyOf, int } from '../../core/body.js';
import { builtVerb, defineOptions, type OptionsOf, type OptionSpec, type Verb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import type { Factory } from '../../core/factory.js';
import type { HttpClient, Response } from '../../core/http.js';
import { itemsOf, type Column } from '../../core/output.js';
import { DATA_OPTION, type DataOpts } from '../../core/rest.js';

export const SCIM_TOKEN_OPTION = {
  flags: '--scim-token <token>',
  description: 'SCIM token (default: PLINTH_SCIM_TOKEN)',
} as const satisfies OptionSpec;
/** What every SCIM verb reads besides its own options. */
export type ScimTokenOpts = OptionsOf<readonly [typeof SCIM_TOKEN_OPTION]>;
export const SCIM_JSON = { 'content-type': 'application/scim+json', accept: 'application/scim+json, application/json' };

/**
 * SCIM endpoints take only a SCIM token (section 5). It comes from --scim-token, PLINTH_SCIM_TOKEN,
 * or the context's own credential when that is a SCIM token; the server URL is the context's.
 */
export async function scimClient(f: Factory, opts: ScimTokenOpts): Promise<HttpClient> {
  const target = await f.target();
  const token = opts.scimToken ?? f.io.env.PLINTH_SCIM_TOKEN ?? (target.credential?.startsWith('scim_') ? target.credential : undefined);
  if (!token) {
    throw new UsageError(
      'SCIM commands need a SCIM token: pass --scim-token or set PLINTH_SCIM_TOKEN',
      'Create one with `plinth scim tokens create --name <name>`.',
    );
  }
  // A refused SCIM token is about --scim-token / PLINTH_SCIM_TOKEN, not about `plinth login`.
  const source = opts.scimToken ? '--scim-token' : f.io.env.PLINTH_SCIM_TOKEN ? 'PLINTH_SCIM_TOKEN' : `context ${target.contextName}`;
  const authHint = `The SCIM token from ${source} was refused: pass a valid one with --scim-token or PLINTH_SCIM_TOKEN (create one with \`plinth scim tokens create --name <name>\`).`;
  return f.clientFor({ url: target.url, credential: token, scheme: 'bearer', source, authHint });
}

export const SCIM_URN = {
  searchRequest: 'urn:ietf:params:scim:api:messages:2.0:SearchRequest',
  bulkRequest: 'urn:ietf:params:scim:api:messages:2.0:BulkRequest',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
} as const;

/** Options of a SCIM list or search (RFC 7644 §3.4.2): as query parameters of a GET, or the body of a `.search`. */
export const SCIM_LIST_OPTIONS = defineOptions([
  { flags: '--filter <filter>', description: 'SCIM filter expression, e.g. \'userName sw "a"\'' },
  { flags: '--start-index <n>', description: '1-based index of the first result' },
  { flags: '--count <n>', description: 'Page size' },
  { flags: '--sort-by <attribute>', description: 'Attribute to sort by' },
  { flags: '--sort-order <order>', description: 'Sort order', choices: ['ascending', 'descending'] },
  { flags: '--attributes <list>', description: 'Comma-separated attributes to return' },
  { flags: '--excluded-attributes <list>', description: 'Comma-separated attributes to leave out' },
]);

export function scimListParams(opts: OptionsOf<typeof SCIM_LIST_OPTIONS>) {
  return {
    filter: opts.filter,
    startIndex: int(opts.startIndex, '--start-index'),
    count: int(opts.count, '--count'),
    sortBy: opts.sortBy,
    sortOrder: opts.sortOrder,
    attributes: opts.attributes,
    excludedAttributes: opts.excludedAttributes,
  };
}

/** A SCIM ListResponse as a table, with a hint on stderr when `totalResults` goes beyond this page. */
export function printScimList(f: Factory, response: Response, columns: Column[]): void {
  f.output.list(response, columns);
  if (f.output.json) return;
  const body = (response.data ?? {}) as { totalResults?: unknown; startIndex?: unknown };
  const shown = itemsOf(response.data).length;
  const start = typeof body.startIndex === 'number' ? body.startIndex : 1;
  if (typeof body.totalResults === 'number' && shown > 0 && start - 1 + shown < body.totalResults) {
    f.output.notice(`More results: add --start-index ${start + shown} (${body.totalResults} in all)`);
  }
}

/**
 * A `.search` (RFC 7644 §3.4.3): the list parameters in a SearchRequest body, from the flags on
 * top of `-d`; attribute lists go as arrays, and `schemas` defaults to the SearchRequest URN.
 */
export function searchVerb(spec: {
  name?: string;
  summary: string;
  path: string;
  columns: Column[];
  description?: string;
  examples?: string[];
}): Verb {
  return builtVerb<OptionsOf<typeof SCIM_LIST_OPTIONS> & DataOpts & ScimTokenOpts>({
    name: spec.name ?? 'search',
    summary: spec.summary,
    description: spec.description,
    examples: spec.examples,
    options: [...SCIM_LIST_OPTIONS, DATA_OPTION, SCIM_TOKEN_OPTION],
    async run(f, _args, opts) {
      const { attributes, excludedAttributes, ...rest } = scimListParams(opts);
      const list = (value: string | undefined) =>
        value
          ?.split(',')
          .map((a) => a.trim())
          .filter(Boolean);
      const body = await bodyOf(f.io, opts.data, { ...rest, attributes: list(attributes), excludedAttributes: list(excludedAttributes) });
      if (!body.schemas) body.schemas = [SCIM_URN.searchRequest];
      const client = await scimClient(f, opts);
      printScimList(f, await client.request('POST', spec.path, { body, headers: SCIM_JSON }), spec.columns);
    },
  });
}
