import { CliError } from '../../core/errors.js';
import type { HttpClient } from '../../core/http.js';
import type { Output } from '../../core/output.js';

/** The steps of the gate, in order (section 4.8 rule 8), and the ones that run whatever happened. */
export type StepName =
  'lease' | 'sync' | 'dev-mode' | 'build' | 'token' | 'query' | 'compare' | 'exit-dev-mode' | 'delete-branches' | 'finish';

export interface StepRecord {
  step: StepName;
  status: 'ok' | 'failed';
  detail: string;
}

/** What the run found out so far; the result document is made of it. */
export interface GateState {
  runId: number | null;
  syncJobId: number | null;
  generatedBranch: string | null;
  devBranch: string | null;
  buildId: number | null;
  rows: Array<Record<string, unknown>> | null;
  missing: Array<Record<string, unknown>>;
  unexpected: Array<Record<string, unknown>>;
  branchesDeleted: boolean;
  devModeExited: boolean;
  steps: StepRecord[];
}

/** A step that failed, and why: the gate stops there (cleanup still runs) and says which step it was. */
export class StepError extends CliError {
  constructor(
    readonly step: StepName,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

/** Everything a step works with. */
export interface Gate {
  client: HttpClient;
  output: Output;
  deploymentId: number;
  ref: string;
  /** Aborted by Ctrl-C, SIGTERM or a lease that could not be kept: waits stop, cleanup runs. */
  signal: AbortSignal;
  /** When waiting steps give up (--timeout), as a Date.now() value. */
  deadline: number;
  /** The pause between two polls of the sync and the build (--poll). */
  pollMs: number;
  state: GateState;
}

export const buildPath = (gate: Gate, path = '') => `/build/api/v1/deployments/${gate.deploymentId}${path}`;
export const apiPath = (gate: Gate, path = '') => `/api/v1/deployments/${gate.deploymentId}${path}`;

export function newState(): GateState {
  return {
    runId: null,
    syncJobId: null,
    generatedBranch: null,
    devBranch: null,
    buildId: null,
    rows: null,
    missing: [],
    unexpected: [],
    branchesDeleted: false,
    devModeExited: false,
    steps: [],
  };
}

/** Prints what a step did, on stderr (always: a CI log is not a terminal), and records it. */
export function done(gate: Gate, step: StepName, detail: string): void {
  gate.state.steps.push({ step, status: 'ok', detail });
  gate.output.notice(`[${step}] ${detail}`);
}

export function failed(gate: Gate, step: StepName, detail: string): void {
  gate.state.steps.push({ step, status: 'failed', detail });
  gate.output.notice(`[${step}] FAILED: ${detail}`);
}

/** Progress inside a step (a sync's stages, a build's state), printed but not recorded as a step. */
export function progress(gate: Gate, step: StepName, detail: string): void {
  gate.output.notice(`[${step}] ${detail}`);
}

/**
 * Pauses between polls. It ends early, with the step failing, when the gate is interrupted or past
 * its --timeout: a wait never outlives the reason for it.
 */
export async function pauseOrStop(gate: Gate, step: StepName, ms: number, waitingFor: string): Promise<void> {
  if (!gate.signal.aborted) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        gate.signal.removeEventListener('abort', finish);
        resolve();
      }
      gate.signal.addEventListener('abort', finish, { once: true });
    });
  }
  if (gate.signal.aborted) throw new StepError(step, `stopped while waiting for ${waitingFor}: ${reasonOf(gate.signal)}`);
  if (Date.now() > gate.deadline)
    throw new StepError(step, `timed out waiting for ${waitingFor}`, 'Raise --timeout if the step needs longer.');
}

export function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'interrupted';
}
