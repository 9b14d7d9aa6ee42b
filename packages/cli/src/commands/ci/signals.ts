import type { IO } from '../../core/io.js';

/**
 * Ctrl-C (the IO's interruption) and SIGTERM (a CI runner cancelling the job) abort the gate, which
 * then still exits dev mode and finishes its lease. A second signal is the default one again: it
 * ends the process at once, and the server's lease check exits dev mode after the lease.
 */
export function onInterrupt(io: IO, abort: (reason: Error) => void): () => void {
  const interrupted = io.interrupted?.();
  const onSignal = () => abort(new Error('interrupted by Ctrl-C or SIGINT'));
  interrupted?.addEventListener('abort', onSignal, { once: true });
  const onTerm = () => abort(new Error('terminated by SIGTERM'));
  // Only the real process receives SIGTERM; an in-process test's IO has no such signal to miss.
  const real = io.stdout === process.stdout;
  if (real) process.once('SIGTERM', onTerm);
  return () => {
    interrupted?.removeEventListener('abort', onSignal);
    if (real) process.off('SIGTERM', onTerm);
  };
}
