import type { EmbedSession } from '../session/session';

/** An answer of the server that was not a success, with the message its error body gave. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function failure(response: Response): Promise<ApiFailure> {
  let message = `HTTP ${response.status}`;
  try {
    const body = (await response.json()) as { message?: string; error?: string };
    message = body.message ?? body.error ?? message;
  } catch {
    // The body was not JSON: the status says enough.
  }
  return new ApiFailure(response.status, message);
}

/** A call of the server's API as the embed user: the token goes in Authorization, never in the URL. */
export async function apiGet<T>(session: EmbedSession, path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { headers: { authorization: session.token }, credentials: 'omit', signal });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

export async function apiPost<T>(session: EmbedSession, path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return apiSend<T>(session, 'POST', path, body, signal);
}

/** A call that sends a JSON body (or none: DELETE, a bodiless POST). */
export async function apiSend<T>(
  session: EmbedSession,
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? { authorization: session.token } : { authorization: session.token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: 'omit',
    signal,
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}
