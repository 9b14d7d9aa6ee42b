import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest, unauthenticated } from '../../http/errors.js';

/** What the webhook route hands the service: the raw bytes GitHub signed and the headers that matter. */
export interface WebhookDelivery {
  body: Buffer;
  contentType: string | undefined;
  signature: string | undefined;
  event: string | undefined;
  delivery: string | undefined;
}

/**
 * Checks `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with the webhook secret) in constant
 * time. Without a secret nothing can be verified, so every delivery is refused.
 */
export function verifySignature(secret: string | undefined, delivery: WebhookDelivery): void {
  if (!secret) throw unauthenticated('Webhook deliveries cannot be verified: PLINTH_GITHUB_WEBHOOK_SECRET is not set on this server');
  if (!delivery.signature) throw unauthenticated('Missing X-Hub-Signature-256 header');
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`);
  const given = Buffer.from(delivery.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw unauthenticated('X-Hub-Signature-256 does not match the body signed with the webhook secret');
  }
}

/** A push event, as far as an import cares. */
export interface PushEvent {
  ref: string;
  deleted: boolean;
  after: string | null;
  installationId: number | null;
  fullName: string | null;
  urls: string[];
}

/** The JSON payload, sent as `application/json` or (a webhook's other content type) form-encoded `payload=`. */
export function parsePayload(delivery: WebhookDelivery): Record<string, unknown> {
  let text = delivery.body.toString('utf8');
  if (delivery.contentType?.startsWith('application/x-www-form-urlencoded')) text = new URLSearchParams(text).get('payload') ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('The webhook payload is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('The webhook payload is not a JSON object');
  return parsed as Record<string, unknown>;
}

export function readPush(payload: Record<string, unknown>): PushEvent {
  const repository = (payload.repository ?? {}) as Record<string, unknown>;
  const installation = (payload.installation ?? {}) as Record<string, unknown>;
  if (typeof payload.ref !== 'string') throw badRequest('The push payload has no ref');
  const urls = ['clone_url', 'ssh_url', 'git_url', 'html_url', 'url']
    .map((key) => repository[key])
    .filter((url): url is string => typeof url === 'string' && url.length > 0);
  return {
    ref: payload.ref,
    deleted: payload.deleted === true,
    after: typeof payload.after === 'string' ? payload.after : null,
    installationId: Number.isSafeInteger(installation.id) ? (installation.id as number) : null,
    fullName: typeof repository.full_name === 'string' ? repository.full_name : null,
    urls,
  };
}
