import { claimsOf, type EmbedClaims } from './claims';

/**
 * An open embed session: the token lives in this object only (never in storage another origin or
 * a later visit could read, never in a URL, never logged), for the life of the page.
 */
export interface EmbedSession {
  readonly token: string;
  readonly claims: EmbedClaims;
}

export type SessionState =
  | { status: 'opening' }
  | { status: 'ready'; session: EmbedSession }
  /** No session in the link, or one already used, unknown or expired: the link cannot be opened again. */
  | { status: 'expired' }
  | { status: 'error'; message: string };

/** Takes a parameter out of the page's URL, so a reload, a copied link or the history never replays it. */
function takeParam(name: string): string | null {
  const url = new URL(location.href);
  const value = url.searchParams.get(name);
  if (value === null) return null;
  url.searchParams.delete(name);
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  return value;
}

/**
 * Exchanges the link's one-time session for an embed token (POST /api/v1/embed/session/token).
 * `param` is where the link carries it: `session` on the dashboard and app pages, `sessionId` on
 * the chat page, as Cube's links do.
 */
export async function openSession(param: 'session' | 'sessionId'): Promise<SessionState> {
  const sessionId = takeParam(param) ?? (param === 'sessionId' ? takeParam('session') : takeParam('sessionId'));
  if (!sessionId) return { status: 'expired' };
  let response: Response;
  try {
    response = await fetch('/api/v1/embed/session/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId }),
      credentials: 'omit',
    });
  } catch {
    return { status: 'error', message: 'The server cannot be reached. Check your connection and reload the page.' };
  }
  if (response.status === 401 || response.status === 404 || response.status === 400) return { status: 'expired' };
  if (!response.ok) return { status: 'error', message: `The server could not open this link (HTTP ${response.status}).` };
  const { token } = (await response.json()) as { token?: string };
  const claims = token ? claimsOf(token) : null;
  if (!token || !claims) return { status: 'error', message: 'The server answered with an embed token this page cannot read.' };
  return { status: 'ready', session: { token, claims } };
}
