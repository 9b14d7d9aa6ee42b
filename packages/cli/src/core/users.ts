import { CliError, UsageError } from './errors.js';
import type { HttpClient } from './http.js';
import { itemsOf } from './output.js';

/**
 * Every command that names an internal user takes its id or its e-mail address, so the examples a
 * newcomer copies work without first looking an id up. An e-mail is resolved here, and only here,
 * through the server's own list (`GET /api/v1/users?email=`), which matches ignoring case.
 */
export async function userIdOf(client: HttpClient, value: string | undefined, what = 'user'): Promise<number> {
  const text = (value ?? '').trim();
  if (/^\d+$/.test(text) && Number(text) >= 1) return Number(text);
  if (!/^[^\s@]+@[^\s@]+$/.test(text)) throw new UsageError(`${what} must be a user id or an e-mail address, got "${value ?? ''}"`);
  const response = await client.request('GET', '/api/v1/users', { query: { email: text } });
  const user = itemsOf(response.data).find((u) => typeof u?.id === 'number');
  if (!user) throw new CliError(`No user with the e-mail address ${text}`, 'List the users with `plinth users list`.');
  return user.id as number;
}

/** Several users at once (`groups add-members 1 ada@example.com 12`), resolved in order. */
export async function userIdsOf(client: HttpClient, values: string[], what = 'user'): Promise<number[]> {
  const ids: number[] = [];
  for (const value of values) ids.push(await userIdOf(client, value, what));
  return ids;
}
