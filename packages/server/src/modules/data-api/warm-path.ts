import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastLane } from '../../http/fast-lane.js';
import type { Principal } from '../../http/principal.js';
import type { AccountService } from '../accounts/service.js';
import type { DataApiService, ServedBy } from './service.js';

/** Most requests remembered at once; past it the map starts over (each entry holds an answer's text). */
const MAX_ENTRIES = 2_000;

interface WarmEntry {
  accountId: number;
  host: string | undefined;
  /** When the data API token the first request carried expires (ms): after that the request goes the full way, to its 403. */
  expiresAtMs: number;
  servedBy: ServedBy;
  /** The result cache's key, and the very answer object it held: a renewed or expired result is another object, or none. */
  key: string;
  answer: unknown;
  /** The answer's JSON as UTF-8 bytes: encoding the text again was a measurable part of each hit. */
  bytes: Buffer;
}

/**
 * The warm path of `GET …/load`: a request identical to one just answered from the result cache
 * (same account, host, URL with its query string, and Authorization header, byte for byte) is
 * answered with that answer's JSON text in the route's onRequest hook, before its query string is
 * validated, its token looked at, its query parsed and normalized or its cache key built. Those
 * steps were most of a warm load's own work.
 *
 * Nothing is taken on trust that could have changed since the first request:
 * - the credential: only data API tokens with an expiry are remembered (the verifier treats them
 *   the same way: the same text verifies the same way until it expires, and nothing revokes one),
 *   and the expiry is checked on every hit; embed tokens (their sessions can be revoked) always go
 *   the full way. A different token, so a different security context, is a different entry.
 * - the build: the serving lookup the first request found its build by must still be the very
 *   object serving holds (stillServing), so any change to the account's builds, branches,
 *   variables or deployments sends the next request the full way.
 * - the result: the result cache must still hold that very answer for that key (its TTL, a renew
 *   that replaced it), which only the per-process runner can say; with Redis every request goes
 *   the full way, so a renew on another process is never missed.
 * A query asking for fresh data (renewQuery, the renewing cache modes) is never remembered.
 */
export class WarmAnswers {
  private readonly entries = new Map<string, Map<string, WarmEntry>>();
  private size = 0;

  constructor(
    private readonly service: DataApiService,
    private readonly accounts: Pick<AccountService, 'cachedHost'>,
  ) {}

  /**
   * The same answer before Fastify's request path (http/fast-lane.ts), for a request whose Host
   * the tenancy hook has already resolved to the entry's account, still enabled: what the hook
   * below relies on Fastify's hooks for (the account of the Host, its URL and headers passing the
   * text rule, as they did when remembered) is checked here or holds for an identical request.
   * Anything else (a deployment host, a host not resolved lately) declines, to the hook.
   */
  readonly lane: FastLane = (request: IncomingMessage) => {
    const { authorization, host } = request.headers;
    if (authorization === undefined || request.method !== 'GET' || host === undefined) return undefined;
    const entry = this.entries.get(request.url ?? '')?.get(authorization);
    if (!entry || entry.host !== host) return undefined;
    const account = this.accounts.cachedHost(host);
    if (!account || typeof account !== 'object' || account.id !== entry.accountId || account.disabled_at) return undefined;
    return this.current(entry) ? entry.bytes : undefined;
  };

  /** The onRequest hook of `GET …/load`: answers a remembered request, or lets it go on. */
  readonly hook = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const bytes = this.lookup(request);
    if (bytes === undefined) return done();
    void reply.type('application/json; charset=utf-8').send(bytes);
  };

  lookup(request: FastifyRequest): Buffer | undefined {
    const authorization = request.headers.authorization;
    if (authorization === undefined || request.method !== 'GET') return undefined;
    const byCredential = this.entries.get(request.url);
    const entry = byCredential?.get(authorization);
    if (!entry || entry.accountId !== request.account?.id || entry.host !== request.headers.host) return undefined;
    if (this.current(entry)) return entry.bytes;
    byCredential!.delete(authorization);
    if (byCredential!.size === 0) this.entries.delete(request.url);
    this.size -= 1;
    return undefined;
  }

  /** Whether the entry's token, build and cached result all still hold. */
  private current(entry: WarmEntry): boolean {
    return (
      entry.expiresAtMs > Date.now() && this.service.stillServing(entry.servedBy) && this.service.cachedAnswer(entry.key) === entry.answer
    );
  }

  /** After a full `GET …/load`: remembers it when its answer came from (or went into) the result cache. */
  remember(
    request: FastifyRequest,
    principal: Principal,
    servedBy: ServedBy | undefined,
    loaded: { answer: unknown; key: string; renew: boolean },
    text: string,
  ): void {
    const authorization = request.headers.authorization;
    if (principal.kind !== 'dataToken' || principal.claims.expiresAt === null || authorization === undefined) return;
    if (!servedBy || loaded.renew || request.method !== 'GET' || request.account?.id !== principal.accountId) return;
    if (this.service.cachedAnswer(loaded.key) !== loaded.answer) return;
    if (this.size >= MAX_ENTRIES) {
      this.entries.clear();
      this.size = 0;
    }
    let byCredential = this.entries.get(request.url);
    if (!byCredential) this.entries.set(request.url, (byCredential = new Map()));
    if (!byCredential.has(authorization)) this.size += 1;
    byCredential.set(authorization, {
      accountId: principal.accountId,
      host: request.headers.host,
      expiresAtMs: principal.claims.expiresAt * 1000,
      servedBy,
      key: loaded.key,
      answer: loaded.answer,
      bytes: Buffer.from(text),
    });
  }

  clear(): void {
    this.entries.clear();
    this.size = 0;
  }
}
