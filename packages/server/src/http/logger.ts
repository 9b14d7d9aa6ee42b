import pino, { type Logger } from 'pino';

/** The server's log: JSON lines on stdout, secrets redacted. */
export interface ServerLog {
  logger: Logger;
  /** Writes out whatever is buffered; call it last, on shutdown. */
  flushSync(): void;
}

const FLUSH_EVERY_MS = 1_000;

/**
 * Log lines are buffered and written in batches: one synchronous write per request cost more than
 * half the throughput of a simple route. A timer writes the buffer out every second, and shutdown
 * writes the rest, so nothing is lost on a normal stop.
 */
export function createServerLog(level: string): ServerLog {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 8 * 1024 });
  // flush() waits for a write in progress to drain, so the timer may fire at any moment.
  const timer = setInterval(() => destination.flush(), FLUSH_EVERY_MS);
  timer.unref();
  const logger = pino(
    {
      level,
      // Secrets travel in headers and a few bodies; none of them is ever written to a log.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
    },
    destination,
  );
  return {
    logger,
    flushSync() {
      clearInterval(timer);
      destination.flushSync();
    },
  };
}
