import { hostname } from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';

/** What the access log says of one finished request. */
export interface AccessEntry {
  reqId: string;
  method: string;
  /** Without the query string: queries may carry filters with personal data. */
  path: string;
  status: number;
  ms: number;
  /** debug for requests too frequent and too dull for an operator's log (telemetry); info otherwise. */
  level?: 'info' | 'debug';
}

/** A request URL without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The server's log: JSON lines on stdout, secrets redacted. */
export interface ServerLog {
  logger: Logger;
  /** The access line of a finished request, at level info (or the entry's own level). */
  access(entry: AccessEntry): void;
  /** Writes out whatever is buffered; call it last, on shutdown. */
  flushSync(): void;
}

const FLUSH_EVERY_MS = 1_000;
const FLUSH_AT_CHARS = 16 * 1024;

/**
 * Log lines are collected and handed to the stdout stream in batches: one write per request cost
 * more than half the throughput of a simple route. The lines are kept as a list and joined once
 * per batch, because sonic-boom's own `minLength` buffering measures its whole buffer again on
 * every line (bench/RESULTS.md, issue 2). A timer writes the batch out every second, and shutdown
 * writes the rest, so nothing is lost on a normal stop. Tests pass `output` to read the lines.
 */
export function createServerLog(level: string, output?: { write(chunk: string): void; flushSync(): void }): ServerLog {
  const stdout = output ?? pino.destination({ dest: 1, sync: false });
  const batch = new LineBatch((chunk) => stdout.write(chunk));
  const timer = setInterval(() => batch.flush(), FLUSH_EVERY_MS);
  timer.unref();
  const logger = pino(
    {
      level,
      // Secrets travel in headers and a few bodies; none of them is ever written to a log.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
    },
    batch,
  );
  const access = accessLine(logger, batch);
  return {
    logger,
    access,
    flushSync() {
      clearInterval(timer);
      batch.flush();
      stdout.flushSync();
    },
  };
}

/**
 * The access line is written by hand in pino's own format: going through pino's object
 * serialisation cost about a tenth of a simple route's time. Every value is a number, a request id
 * of our making, an HTTP method, or a path that JSON.stringify escapes.
 */
function accessLine(logger: Logger, batch: LineBatch): (entry: AccessEntry) => void {
  const info = logger.isLevelEnabled('info');
  const debug = logger.isLevelEnabled('debug');
  if (!info && !debug) return () => {};
  const origin = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":"`;
  return ({ reqId, method, path, status, ms, level = 'info' }) => {
    if (level === 'debug' ? !debug : !info) return;
    batch.write(
      `{"level":${level === 'debug' ? 20 : 30},"time":${Date.now()}${origin}${reqId}","method":"${method}","path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`,
    );
  };
}

/** Lines waiting to be written, passed on as one string once they add up to a batch. */
export class LineBatch implements DestinationStream {
  private lines: string[] = [];
  private chars = 0;

  constructor(private readonly writeChunk: (chunk: string) => void) {}

  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= FLUSH_AT_CHARS) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    const chunk = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.writeChunk(chunk);
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The level of the route's access lines; info unless the route says otherwise. */
    accessLogLevel?: 'info' | 'debug';
  }
}
