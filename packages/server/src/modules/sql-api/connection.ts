import type { Socket } from 'node:net';
import {
  BackendError,
  closeSignal,
  createScramSha256Data,
  verifyScramSha256Password,
  type PostgresConnection,
  type ScramSha256Data,
} from 'pg-gateway';
import { fromNodeSocket } from 'pg-gateway/node';
import { accountOfDatabase, TOKEN_USER, tokenCaller, userCaller, type SqlCaller } from './callers.js';
import { wireErrorOf } from './errors.js';
import { SqlSession } from './session.js';
import type { SqlListenerDeps } from './listener.js';
import * as wire from './wire.js';

const CANCEL_REQUEST = 80877102;
const GSSENC_REQUEST = 80877104;
const SSL_REQUEST = 80877103;
const STARTUP_3_0 = 196608;
/** Chunks a session may queue ahead of the socket before its producer waits. */
const HIGH_WATER = 64;
/** Answers held back from the socket up to this size before they are written without waiting for Sync. */
const HOLD_BYTES = 64 * 1024;
/** Messages whose answers wait for Sync or Flush (Parse, Bind, Describe, Execute, Close); after any other, all are written. */
const HOLDING = new Set(['P', 'B', 'D', 'E', 'C']);

/** What a message's answer returns when it is complete: not a chunk, so pg-gateway writes nothing for it. */
const ANSWERED = true;

/**
 * Answers not written yet. As PostgreSQL does, the answers to Parse, Bind, Describe and Execute
 * wait for Sync or Flush and go out in one write: each write is a system call and, with Nagle off,
 * a packet of its own, which cost more than the statement itself for a cached result.
 */
interface Held {
  chunks: Buffer[];
  bytes: number;
}

/** The version clients are told: drivers read it for features, so it is a PostgreSQL they know. */
export const SERVER_VERSION = '14.0 (Plinth SQL API)';

type Auth =
  | { method: 'trust' }
  | { method: 'password'; getClearTextPassword: () => string; validateCredentials: (c: { password: string }) => Promise<boolean> }
  | { method: 'scram-sha-256'; getScramSha256Data: () => Promise<ScramSha256Data> };

/**
 * One client connection: pg-gateway reads the start-up, TLS and authentication; pg-gateway's
 * `onMessage` hands every later message (and the few start-up requests it does not know) to us.
 * The method asked for depends on the user name (TOKEN_USER: cleartext; else SCRAM-SHA-256).
 */
export async function serveConnection(socket: Socket, deps: SqlListenerDeps): Promise<void> {
  socket.setNoDelay(true);
  let caller: SqlCaller | undefined;
  let session: SqlSession | undefined;
  let scram: { data: ScramSha256Data; onSuccess: () => SqlCaller } | undefined;
  const key = deps.keys.next();
  const auth: Auth = { method: 'trust' };
  // Set once pg-gateway made it; the hooks below run only after, on the connection's own messages.
  // eslint-disable-next-line prefer-const -- read by the hooks above its assignment
  let connection: PostgresConnection | undefined;
  const held: Held = { chunks: [], bytes: 0 };

  let closeGone: () => void = () => undefined;
  const gone = new Promise<void>((resolve) => (closeGone = resolve));
  const fatal = (code: string, message: string) => [wire.errorResponse({ severity: 'FATAL', code, message }), closeSignal];

  const onStartup = async () => {
    const params = connection!.clientParams!;
    const user = params.user;
    const { account, deploymentId } = await accountOfDatabase(deps.pipeline, params.database || user).catch((error: unknown) => {
      // pg-gateway sends a thrown BackendError (its own class, not an Error) as a FATAL ErrorResponse.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw asBackendError(error);
    });
    if (user === TOKEN_USER) {
      Object.assign(auth, {
        method: 'password',
        getClearTextPassword: () => '',
        validateCredentials: async ({ password }: { password: string }) => {
          caller = await tokenCaller(deps.pipeline, account, deploymentId, password).catch(() => undefined);
          return caller !== undefined;
        },
      });
      return;
    }
    const found = await deps.credentials.user(deploymentId, user);
    // An unknown user goes through the same exchange (with a verifier nobody holds): the failure tells nothing.
    const data = found && found.accountId === account.id ? found.scram : await createScramSha256Data(key.secret.toString(36));
    scram = { data, onSuccess: () => userCaller(account, found!) };
    Object.assign(auth, { method: 'scram-sha-256', getScramSha256Data: async () => data });
  };

  /** SCRAM's final message, checked before pg-gateway sees it, so a wrong password is PostgreSQL's 28P01. */
  const checkScramProof = async (data: Uint8Array) => {
    const flow = connection!.authFlow as unknown as { step: string; clientFirstMessageBare?: string; serverFirstMessage?: string };
    if (!scram || flow?.step !== 'ServerFirstMessage') return undefined;
    const text = Buffer.from(data.subarray(5)).toString('utf8');
    const parts = text.split(',');
    const proof = parts.find((p) => p.startsWith('p='))?.slice(2);
    const withoutProof = parts.filter((p) => !p.startsWith('p=')).join(',');
    const authMessage = `${flow.clientFirstMessageBare},${flow.serverFirstMessage},${withoutProof}`;
    const valid = proof ? await verifyScramSha256Password({ authMessage, clientProof: proof, storedKey: scram.data.storedKey }) : false;
    if (!valid || !connection!.clientParams)
      return fatal('28P01', `password authentication failed for user "${connection!.clientParams?.user ?? ''}"`);
    try {
      caller = scram.onSuccess();
    } catch {
      return fatal('28P01', `password authentication failed for user "${connection!.clientParams.user}"`);
    }
    return undefined;
  };

  const onAuthenticated = async () => {
    const writer = connection!.streamWriter!;
    const params = connection!.clientParams!;
    const statuses: Array<[string, string]> = [
      ['server_encoding', 'UTF8'],
      ['client_encoding', 'UTF8'],
      ['DateStyle', 'ISO, MDY'],
      ['IntervalStyle', 'postgres'],
      ['TimeZone', 'UTC'],
      ['integer_datetimes', 'on'],
      ['standard_conforming_strings', 'on'],
      ['is_superuser', 'off'],
      ['session_authorization', params.user],
      ['application_name', params.application_name ?? ''],
    ];
    await writer.write(wire.backendKeyData(key.pid, key.secret));
    for (const [name, value] of statuses) await writer.write(wire.parameterStatus(name, value));
    const current = caller!;
    // Who and where the client said it is: what current_user and current_database() answer.
    const login = { user: params.user, database: params.database || params.user };
    session = new SqlSession(
      () => deps.served(current, login),
      (error) => deps.log(error),
    );
    deps.keys.register(key, session);
  };

  const onMessage = async (data: Uint8Array, state: { step: string; hasStarted: boolean; isAuthenticated: boolean }) => {
    if (!state.hasStarted) {
      const code = data.length >= 8 ? Buffer.from(data).readInt32BE(4) : -1;
      if (![STARTUP_3_0, SSL_REQUEST, GSSENC_REQUEST, CANCEL_REQUEST].includes(code)) {
        return fatal('08P01', 'unsupported frontend protocol: this is a PostgreSQL server (protocol 3.0)');
      }
      if (code === GSSENC_REQUEST) return [Buffer.from('N')];
      // pg-gateway refuses every start-up without TLS once TLS is configured; unless TLS is
      // required, this client (which did not ask for it) is served in the clear, as PostgreSQL serves it.
      if (code === STARTUP_3_0 && connection!.options.tls && !connection!.tlsInfo && !deps.tlsRequired())
        connection!.options.tls = undefined;
      if (code === CANCEL_REQUEST && data.length === 16) {
        const view = Buffer.from(data);
        deps.keys.cancel(view.readInt32BE(8), view.readInt32BE(12));
        return [closeSignal];
      }
    }
    if (state.step === 'PerformingAuthentication') return checkScramProof(data);
    if (!state.isAuthenticated || !session) return undefined;
    return respond(session, data, held, gone);
  };

  connection = await fromNodeSocket(socket, {
    serverVersion: SERVER_VERSION,
    auth: auth as never,
    ...(deps.tls ? { tls: deps.tls } : {}),
    onStartup,
    onAuthenticated,
    onMessage: onMessage as never,
  });
  socket.once('close', () => {
    closeGone();
    session?.close();
    deps.keys.forget(key);
  });
}

/**
 * Runs one message through the session, streaming what it sends to the socket as it comes: the
 * session waits while HIGH_WATER chunks are queued, and pg-gateway takes the next only once the
 * socket took the last (its writer waits for 'drain'). Once the connection is `gone`, what the
 * session still sends is dropped and nothing waits.
 */
function respond(session: SqlSession, data: Uint8Array, held: Held, gone: Promise<void>): AsyncIterable<Uint8Array | typeof closeSignal> {
  const type = String.fromCharCode(data[0]!);
  if (type === 'X') {
    return (async function* (): AsyncGenerator<typeof closeSignal> {
      yield closeSignal;
    })();
  }
  const queue: Buffer[] = [];
  let wake: (() => void) | undefined;
  let drained: (() => void) | undefined;
  let finished = false;
  let closing = false;
  let closed = false;
  void gone.then(() => {
    closed = true;
    queue.length = 0;
    held.chunks.length = 0;
    held.bytes = 0;
    drained?.();
  });
  const send = async (chunk: Buffer) => {
    if (closed) return;
    queue.push(chunk);
    wake?.();
    if (queue.length >= HIGH_WATER) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), gone]);
  };
  const work = (async () => {
    try {
      const reader = new wire.MessageReader(data);
      session.send = send;
      if (type === 'Q') await session.query(reader.cstring());
      else if ('PBDECSH'.includes(type)) await session.extended(type, reader);
      else await send(wire.errorResponse({ code: '0A000', message: `message type "${type}" is not supported` }));
    } catch (error) {
      await send(wire.errorResponse(wireErrorOf(error)));
      closing = error instanceof wire.ProtocolViolation;
    } finally {
      finished = true;
      wake?.();
    }
  })();
  // Past a lost connection nobody awaits the work: its failure must not become an unhandled rejection.
  work.catch(() => undefined);
  const release = () => {
    const batch = Buffer.concat(held.chunks.splice(0));
    held.bytes = 0;
    return batch;
  };
  return (async function* () {
    for (;;) {
      if (queue.length > 0) {
        for (const chunk of queue.splice(0)) {
          held.chunks.push(chunk);
          held.bytes += chunk.length;
        }
        drained?.();
        drained = undefined;
        if (held.bytes >= HOLD_BYTES) yield release();
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    await work;
    if ((!HOLDING.has(type) || closing) && held.bytes > 0) yield release();
    if (closing) yield closeSignal;
    // pg-gateway answers a message itself unless its hook yields or returns something; returning
    // says it is answered without a write of nothing, which would still be a system call.
    return ANSWERED;
  })();
}

/** pg-gateway sends a thrown BackendError as a FATAL ErrorResponse and closes. */
function asBackendError(error: unknown) {
  const { code, message } = wireErrorOf(error);
  return BackendError.create({ severity: 'FATAL', code, message });
}
