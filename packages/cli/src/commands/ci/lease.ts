import type { Ok } from '@plinth/api-client';
import { HttpError } from '../../core/errors.js';
import { buildPath, done, StepError, type Gate } from './context.js';

type CiRun = Ok<'/build/api/v1/deployments/{deploymentId}/ci-runs', 'post'>;

/**
 * One request waits at most this long on the server: fetch gives up on an answer after 300 s, so
 * a longer --wait is spent in several requests, each a fresh turn in the queue.
 */
const REQUEST_WAIT_SECONDS = 240;

/**
 * Takes the run's lease (section 4.8 rule 8: runs of one deployment and credential are serialized
 * by the server), waiting up to `waitSeconds` for a run holding it; the server's 409 names that run.
 */
export async function acquireLease(gate: Gate, waitSeconds: number): Promise<CiRun> {
  const until = Date.now() + waitSeconds * 1000;
  for (;;) {
    const wait = Math.max(0, Math.min(REQUEST_WAIT_SECONDS, Math.ceil((until - Date.now()) / 1000)));
    try {
      const response = await gate.client.request<CiRun>('POST', buildPath(gate, '/ci-runs'), {
        body: { ref: gate.ref, waitSeconds: wait },
      });
      gate.state.runId = response.data.runId;
      done(gate, 'lease', `run ${response.data.runId} holds the lease of deployment ${gate.deploymentId} for this credential`);
      return response.data;
    } catch (error) {
      if (error instanceof HttpError && error.status === 409 && Date.now() < until && !gate.signal.aborted) continue;
      if (error instanceof HttpError && error.status === 409)
        throw new StepError('lease', error.message, 'Another gate of this API key is running; give the gate its own key, or raise --wait.');
      throw error;
    }
  }
}

/**
 * Heartbeats the lease every quarter of it while the gate runs. A heartbeat the server refuses (the
 * lease lapsed and the run was ended) stops the gate through `stop`: its dev mode is gone.
 */
export function keepLease(gate: Gate, run: CiRun, stop: (reason: Error) => void): () => void {
  let beating: Promise<unknown> = Promise.resolve();
  const timer = setInterval(
    () => {
      beating = gate.client.request('POST', buildPath(gate, `/ci-runs/${run.runId}/heartbeat`)).catch((error: unknown) => {
        if (error instanceof HttpError && (error.status === 409 || error.status === 404)) {
          stop(new Error(`the lease of run ${run.runId} was lost: ${error.message}`));
        }
        // A network blip is retried by the next beat; the lease outlasts several missed ones.
      });
    },
    Math.max(1, run.leaseSeconds / 4) * 1000,
  );
  return () => {
    clearInterval(timer);
    void beating;
  };
}

/** Hands the lease on; the next run of this credential may start. */
export async function finishLease(gate: Gate, passed: boolean): Promise<void> {
  if (gate.state.runId === null) return;
  const outcome = passed ? 'passed' : 'failed';
  await gate.client.request('POST', buildPath(gate, `/ci-runs/${gate.state.runId}/finish`), { body: { outcome } });
  done(gate, 'finish', `run ${gate.state.runId} finished (${outcome}); the lease is free`);
}
