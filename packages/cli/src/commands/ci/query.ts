import { messageOf } from '../../core/errors.js';
import { StepError, type Gate } from './context.js';

/** Waits between the retries of a `Continue wait` answer, as Cube's clients do. */
const RETRY_MS = [100, 250, 500, 1000];

/** What the gate reads of a load answer, which the spec leaves open (DataApiLoadResponse). */
type Answer = { data?: Array<Record<string, unknown>>; error?: string };

/**
 * GET `{deploymentUrl}/dev-mode/{branch}/cubejs-api/v1/load?query=…` with the token alone in
 * Authorization (section 4.7). A deployment URL on the server's own origin goes through the
 * factory's client; one on another host (a host template) is fetched as it is.
 */
export async function loadRows(
  gate: Gate,
  url: string,
  token: string,
  query: unknown,
  pause: (ms: number) => Promise<void>,
): Promise<Array<Record<string, unknown>>> {
  for (let attempt = 0; ; attempt += 1) {
    const { status, body, text } = await get(gate, url, token, JSON.stringify(query));
    if (status === 200 && body?.error === 'Continue wait') {
      await pause(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]!);
      continue;
    }
    if (status !== 200 || !Array.isArray(body?.data))
      throw new StepError('query', `the data API answered ${messageOf(status, body, text)}`);
    return body.data;
  }
}

async function get(
  gate: Gate,
  url: string,
  token: string,
  query: string,
): Promise<{ status: number; body: Answer | undefined; text: string }> {
  const origin = gate.client.target.url.replace(/\/+$/, '');
  if (url.startsWith(`${origin}/`)) {
    const response = await gate.client.request<Answer>('GET', url.slice(origin.length), {
      anonymous: true,
      allowErrors: true,
      headers: { authorization: token },
      query: { query },
    });
    return { status: response.status, body: response.data, text: response.text };
  }
  const target = new URL(url);
  target.searchParams.set('query', query);
  const response = await fetch(target, { headers: { authorization: token, accept: 'application/json' } });
  const text = await response.text();
  let body: Answer | undefined;
  try {
    body = JSON.parse(text) as Answer;
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}
