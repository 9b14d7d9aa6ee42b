import { pairs, readDataArg } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { HttpError, UsageError } from '../../core/errors.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export const verb = defineVerb({
  name: 'api',
  summary: 'Send an authenticated request and print the response body',
  description: 'Exits non-zero when the server answers 4xx or 5xx (the body is still printed).',
  args: ['<method>', '<path>'],
  options: [
    { flags: '-q, --query <key=value>', description: 'Query parameter (repeatable)', repeatable: true },
    { flags: '-d, --data <json>', description: 'Request body: JSON, @file, or - for standard input' },
    { flags: '-H, --header <name:value>', description: 'Extra request header (repeatable)', repeatable: true },
    { flags: '-i, --include', description: 'Print the status line and headers before the body (on stderr)' },
  ],
  examples: [
    'plinth api GET /api/v1/deployments -q first=10',
    `plinth api POST /api/v1/user-groups -d '{"name": "analysts"}'`,
    'plinth api PUT /api/v1/tenant-settings -d @settings.json',
  ],
  async run(f, [method, path], opts) {
    const verb = method!.toUpperCase();
    if (!METHODS.includes(verb)) throw new UsageError(`Unknown method "${method}"; use one of ${METHODS.join(', ')}`);
    if (!path!.startsWith('/')) throw new UsageError(`The path must start with "/", got "${path}"`);
    const query: Record<string, string[]> = {};
    for (const [key, value] of pairs(opts.query, '-q')) (query[key] ??= []).push(value);
    const headers: Record<string, string> = {};
    for (const header of opts.header ?? []) {
      const at = header.indexOf(':');
      if (at <= 0) throw new UsageError(`-H expects name:value, got "${header}"`);
      headers[header.slice(0, at).trim().toLowerCase()] = header.slice(at + 1).trim();
    }
    let body: string | undefined;
    if (opts.data !== undefined) {
      body = await readDataArg(f.io, opts.data);
      try {
        JSON.parse(body);
        headers['content-type'] ??= 'application/json';
      } catch {
        if (!headers['content-type']) throw new UsageError('-d is not valid JSON (set -H content-type:… to send other data)');
      }
    }
    const client = await f.client();
    const response = await client.request(verb, path!, { query, body, headers, allowErrors: true });
    if (opts.include) {
      f.io.stderr.write(`HTTP ${response.status}\n`);
      response.headers.forEach((value, name) => f.io.stderr.write(`${name}: ${value}\n`));
      f.io.stderr.write('\n');
    }
    if (response.text) f.output.data(response.text);
    if (response.status >= 400) {
      const error = client.errorOf(response);
      throw new HttpError(error.status, error.message, error.body, error.requestId);
    }
  },
});
