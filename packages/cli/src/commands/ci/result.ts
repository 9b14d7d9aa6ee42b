import type { Gate, StepError } from './context.js';

/** The one document `--json` prints, passed or failed. */
export function resultDocument(gate: Gate, failure: StepError | undefined) {
  const { state } = gate;
  return {
    passed: failure === undefined,
    deploymentId: gate.deploymentId,
    ref: gate.ref,
    runId: state.runId,
    syncJobId: state.syncJobId,
    generatedBranch: state.generatedBranch,
    devBranch: state.devBranch,
    buildId: state.buildId,
    failedStep: failure?.step ?? null,
    error: failure?.message ?? null,
    rows: state.rows,
    missing: state.missing,
    unexpected: state.unexpected,
    devModeExited: state.devModeExited,
    branchesDeleted: state.branchesDeleted,
    steps: state.steps,
  };
}
