import { bodyOf, positiveInt } from './body.js';
import { UsageError } from './errors.js';
import { builtVerb, defineOptions, type OptionsOf, type OptionSpec, type Verb } from './define.js';
import type { Factory } from './factory.js';
import type { HttpClient } from './http.js';
import type { Column } from './output.js';

/**
 * Builders for the verbs most groups share (list, get, create, update, delete). Each returns a
 * plain Verb, so a group's file per verb stays a short declaration of paths, columns and flags.
 */
/** The request path; it may ask the server (an e-mail address resolved to a user id). */
type PathOf<Opts = object> = (args: string[], opts: Opts, client: HttpClient) => string | Promise<string>;

export const DATA_OPTION = {
  flags: '-d, --data <json>',
  description: 'Request body as JSON, @file, or - for standard input',
} as const satisfies OptionSpec;
/** What a verb with -d reads. */
export type DataOpts = OptionsOf<readonly [typeof DATA_OPTION]>;
/** The paging flags of a list, for a server whose page size stops at `most`. */
export function pageOptions(most = 1000) {
  return defineOptions([
    { flags: '--first <n>', description: `Page size (default 100, at most ${most})` },
    { flags: '--after <cursor>', description: 'Continue after this cursor (printed when there are more results)' },
  ]);
}
const PAGE_OPTIONS = pageOptions();

export function pageQuery(opts: OptionsOf<typeof PAGE_OPTIONS>) {
  return { first: opts.first === undefined ? undefined : positiveInt(opts.first, '--first'), after: opts.after };
}

export function listVerb<const Options extends readonly OptionSpec[] = []>(spec: {
  summary: string;
  path: PathOf<OptionsOf<Options>>;
  columns: Column[];
  args?: string[];
  options?: Options;
  paged?: boolean;
  query?: (opts: OptionsOf<Options>) => Record<string, unknown>;
}): Verb {
  return builtVerb<OptionsOf<Options> & OptionsOf<typeof PAGE_OPTIONS>>({
    name: 'list',
    aliases: ['ls'],
    summary: spec.summary,
    args: spec.args,
    options: [...(spec.paged === false ? [] : PAGE_OPTIONS), ...(spec.options ?? [])],
    async run(f, args, opts) {
      const client = await f.client();
      const query = { ...(spec.paged === false ? {} : pageQuery(opts)), ...spec.query?.(opts) };
      f.output.list(await client.request('GET', await spec.path(args, opts, client), { query }), spec.columns);
    },
  });
}

export function getVerb(spec: { summary: string; path: PathOf; args?: string[]; fields?: Column[]; name?: string }): Verb {
  return {
    name: spec.name ?? 'get',
    summary: spec.summary,
    args: spec.args ?? ['<id>'],
    async run(f, args, opts) {
      const client = await f.client();
      f.output.object(await client.request('GET', await spec.path(args, opts, client)), spec.fields);
    },
  };
}

/** A verb that sends a JSON body built from `-d` and flags, then prints the answer. */
export function bodyVerb<const Options extends readonly OptionSpec[] = []>(spec: {
  name: string;
  summary: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: PathOf<OptionsOf<Options>>;
  args?: string[];
  options?: Options;
  /** Body fields from flags; undefined values are left out. */
  fields?: (opts: OptionsOf<Options>, args: string[]) => Record<string, unknown>;
  show?: Column[];
  /** The body may be empty (no -d, no flags). */
  optionalBody?: boolean;
  /** Body fields the server requires, each with its flag: missing ones are a usage error before any request. */
  required?: Array<[field: string, flag: string]>;
  done?: (args: string[], data: Record<string, unknown> | undefined) => string;
  description?: string;
  examples?: string[];
}): Verb {
  return builtVerb<OptionsOf<Options> & DataOpts>({
    name: spec.name,
    summary: spec.summary,
    description: spec.description,
    examples: spec.examples,
    args: spec.args,
    options: [...(spec.options ?? []), DATA_OPTION],
    async run(f, args, opts) {
      const body = await bodyOf(f.io, opts.data, spec.fields?.(opts, args) ?? {});
      requireFields(body, spec.required ?? []);
      const client = await f.client();
      const send = Object.keys(body).length > 0 || !spec.optionalBody ? body : undefined;
      const response = await client.request<Record<string, unknown> | undefined>(spec.method, await spec.path(args, opts, client), {
        body: send,
      });
      if (spec.done) f.output.status(spec.done(args, response.data));
      if (response.text) f.output.object(response, spec.show);
    },
  });
}

/** A missing required field is the user's mistake, told before anything is sent. */
export function requireFields(body: Record<string, unknown>, required: Array<[field: string, flag: string]>): void {
  const missing = required.filter(([field]) => body[field] === undefined);
  if (missing.length > 0) {
    const flags = missing.map(([, flag]) => flag).join(', ');
    throw new UsageError(
      `${missing.length === 1 ? 'required option' : 'required options'} ${flags} not given`,
      `Give ${flags}, or the field${missing.length === 1 ? '' : 's'} ${missing.map(([field]) => `"${field}"`).join(', ')} in -d.`,
    );
  }
}

export function deleteVerb(spec: {
  summary: string;
  path: PathOf;
  args?: string[];
  what: (args: string[]) => string;
  name?: string;
}): Verb {
  return {
    name: spec.name ?? 'delete',
    aliases: spec.name ? undefined : ['rm'],
    summary: spec.summary,
    args: spec.args ?? ['<id>'],
    async run(f: Factory, args) {
      const client = await f.client();
      const response = await client.request('DELETE', await spec.path(args, {}, client));
      if (f.output.json && response.text) f.output.raw(response);
      f.output.status(`Deleted ${spec.what(args)}`);
    },
  };
}

export const id = (value: string | undefined, what = 'id') => positiveInt(value ?? '', what);
export const enc = encodeURIComponent;
