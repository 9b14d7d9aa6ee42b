import { EgressRefusedError, type EgressPolicy } from '../../egress/policy.js';
import { egressFetch } from '../../egress/fetch.js';
import { DeliveryError } from './errors.js';
import type { SlackInput, SlackPosted } from './types.js';

const WHAT = 'Slack (PLINTH_SLACK_API_URL)';
const TIMEOUT_MS = 30_000;
/** Slack's errors that pass with time; every other `error` (bad token, unknown channel, missing scope) never will. */
const TRANSIENT_ERRORS = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/**
 * A message, then the image uploaded into the same channel by Slack's external upload flow
 * (files.getUploadURLExternal, the upload, files.completeUploadExternal). The image's bytes go up
 * before the message is posted, so a failing upload never leaves a message without its image.
 */
export async function postToSlack(apiUrl: string, egress: EgressPolicy, token: string, input: SlackInput): Promise<SlackPosted> {
  const call = (method: string, body: Record<string, string>, json = false) => slackCall(apiUrl, egress, token, method, body, json);
  let fileId: string | undefined;
  if (input.png) {
    const filename = input.filename ?? 'dashboard.png';
    const upload = await call('files.getUploadURLExternal', { filename, length: String(input.png.length) });
    fileId = String(upload.file_id);
    await send(egress, 'Slack upload URL', String(upload.upload_url), {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: input.png,
    });
  }
  const posted = await call('chat.postMessage', { channel: input.channelId, text: input.text }, true);
  if (fileId) {
    await call('files.completeUploadExternal', {
      files: JSON.stringify([{ id: fileId, title: input.filename ?? 'dashboard.png' }]),
      channel_id: input.channelId,
    });
  }
  return { ts: String(posted.ts), ...(fileId ? { fileId } : {}) };
}

async function slackCall(apiUrl: string, egress: EgressPolicy, token: string, method: string, body: Record<string, string>, json: boolean) {
  const response = await send(egress, WHAT, `${apiUrl}/${method}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': json ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded',
    },
    body: json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
  });
  let answer: Record<string, unknown>;
  try {
    answer = (await response.json()) as Record<string, unknown>;
  } catch (error) {
    throw new DeliveryError(`Slack's ${method} answered something other than JSON`, true, { cause: error });
  }
  if (answer.ok !== true) {
    const code = typeof answer.error === 'string' ? answer.error : 'unknown_error';
    throw new DeliveryError(`Slack refused ${method}: ${code}`, TRANSIENT_ERRORS.has(code));
  }
  return answer;
}

/** One request through the egress policy: a refusal never passes; no answer, 429 or 5xx may pass later. */
async function send(egress: EgressPolicy, what: string, url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await egressFetch(egress, what, url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    if (error instanceof EgressRefusedError) throw new DeliveryError(error.message, false, { cause: error });
    throw new DeliveryError(`${what} could not be reached: ${(error as Error).message}`, true, { cause: error });
  }
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    const after = response.headers.get('retry-after');
    throw new DeliveryError(`${what} answered ${response.status}${after ? ` (retry after ${after} s)` : ''}`, true);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new DeliveryError(`${what} answered ${response.status}`, false);
  }
  return response;
}
