import { readJsonArg } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { AuthError, CliError, NetworkError, UsageError } from '../../core/errors.js';
import { id } from '../../core/rest.js';
import { cleanUp } from './cleanup.js';
import { compareRows, describeDifference, expectedRows } from './compare.js';
import { failed, newState, reasonOf, StepError, type Gate, type StepName } from './context.js';
import { acquireLease, keepLease } from './lease.js';
import { onInterrupt } from './signals.js';
import { enterDevMode, query, tokenFor, waitForDevBuild } from './steps.js';
import { syncRef } from './sync.js';
import { resultDocument } from './result.js';

const SHA = /^[0-9a-f]{7,40}$/i;

export const dbtGate = defineVerb({
  name: 'dbt-gate',
  summary: 'Check a dbt ref against real data: sync, dev mode, build, query, compare; always exit dev mode',
  description:
    'The CI gate of section 4.8 rule 8 in one command: syncs the ref into a new branch, enters dev mode on it, waits for the ' +
    "dev branch's build, queries its data API (retrying `Continue wait`) and compares the rows with --expect. Dev mode is " +
    'exited whatever happens (also on Ctrl-C or SIGTERM); both branches are deleted when the gate passes and kept when it ' +
    'fails. Runs of one deployment and credential take turns on the server, so give the gate its own API key holding ' +
    'SchemaUpdate, SchemaRead, SchemaUpdateDevBranches and DeploymentRead on the deployment. Exits 1 when any step fails.',
  args: ['<deployment_id>'],
  options: [
    { flags: '--ref <ref>', description: 'Branch or tag of the dbt repository to check (not a commit SHA)', required: true },
    { flags: '--query <json>', description: 'The Cube query to run on the dev branch (JSON, or @file)', required: true },
    { flags: '--expect <json>', description: 'The expected `data` array (JSON, or @file): rows compare as a set, numbers by value' },
    { flags: '--timeout <seconds>', description: 'Give up waiting for the sync, the build or the query after this long (default 900)' },
    { flags: '--wait <seconds>', description: 'Wait this long for another run of this credential to finish (default 300)' },
    { flags: '--poll <seconds>', description: 'Pause between two polls of the sync and the build (default 1; fractions allowed)' },
  ],
  examples: [
    `plinth ci dbt-gate 3 --ref feature/orders --query '{"measures":["orders.count"]}' --expect '[{"orders.count":"42"}]'`,
    'plinth ci dbt-gate 3 --ref "$GITHUB_HEAD_REF" --query @ci/query.json --expect @ci/expected.json --json',
  ],
  async run(f, [deploymentId], opts) {
    const deployment = id(deploymentId, 'deployment_id');
    if (opts.ref.trim() === '') throw new UsageError('--ref is empty; name the branch or tag to check');
    if (SHA.test(opts.ref)) throw new UsageError('--ref takes a branch or tag, not a commit SHA');
    const cubeQuery = await readJsonArg(f.io, opts.query, '--query');
    if (cubeQuery === null || typeof cubeQuery !== 'object') throw new UsageError('--query must be a JSON object (a Cube query)');
    const expected = opts.expect === undefined ? null : expectedRows(await readJsonArg(f.io, opts.expect, '--expect'));
    if (typeof expected === 'string') throw new UsageError(`--expect ${expected}`);
    const timeout = seconds(opts.timeout, '--timeout', 900);
    const wait = seconds(opts.wait, '--wait', 300, true);
    const poll = pollSeconds(opts.poll);
    const client = await f.client();
    const controller = new AbortController();
    const stopListening = onInterrupt(f.io, (reason) => controller.abort(reason));
    const gate: Gate = {
      client,
      output: f.output,
      deploymentId: deployment,
      ref: opts.ref,
      signal: controller.signal,
      deadline: Date.now() + timeout * 1000,
      pollMs: poll * 1000,
      state: newState(),
    };
    let failure: StepError | undefined;
    let leased = false;
    let stopBeating = () => {};
    const step = async <T>(name: StepName, work: () => Promise<T>): Promise<T> => {
      try {
        // A request in flight when the signal came (the lease's wait) is not cut; the next step does not start.
        if (gate.signal.aborted) throw new StepError(name, `stopped before this step: ${reasonOf(gate.signal)}`);
        return await work();
      } catch (error) {
        const stepError =
          error instanceof StepError ? error : new StepError(name, error instanceof Error ? error.message : String(error), undefined);
        failed(gate, stepError.step, stepError.message);
        throw Object.assign(stepError, { cause: error });
      }
    };
    try {
      const run = await step('lease', () => acquireLease(gate, wait));
      leased = true;
      stopBeating = keepLease(gate, run, (reason) => controller.abort(reason));
      await step('sync', () => syncRef(gate));
      await step('dev-mode', () => enterDevMode(gate));
      await step('build', () => waitForDevBuild(gate));
      const at = await step('token', () => tokenFor(gate));
      await step('query', () => query(gate, at, cubeQuery));
      if (expected) {
        await step('compare', async () => {
          const comparison = compareRows(gate.state.rows!, expected);
          gate.state.missing = comparison.missing;
          gate.state.unexpected = comparison.unexpected;
          if (!comparison.matches)
            throw new StepError('compare', `the data does not match --expect:\n  ${describeDifference(comparison).join('\n  ')}`);
          gate.output.notice(`[compare] ${gate.state.rows!.length} rows match --expect`);
        });
      }
    } catch (error) {
      failure = error as StepError;
    } finally {
      stopBeating();
      // Without the lease, another run of this credential is in flight: its dev mode is not ours to exit.
      const problems = leased ? await cleanUp(gate, failure === undefined) : [];
      stopListening();
      if (!failure && problems.length > 0)
        failure = new StepError('finish', `the gate passed, but cleaning up failed: ${problems.join('; ')}`);
      if (f.output.json) f.output.data(JSON.stringify(resultDocument(gate, failure), null, 2));
    }
    if (failure) throw gateError(failure, gate);
    if (!f.output.json)
      f.output.data(`Gate passed: ref ${gate.ref}, ${gate.state.rows?.length ?? 0} rows${expected ? ' match --expect' : ''}`);
  },
});

/** The one error line: which step failed and why, with the exit code of the failure's kind (exit-codes.ts). */
function gateError(failure: StepError, gate: Gate): CliError {
  const message = `gate failed at step "${failure.step}": ${failure.message}`;
  const kept = [gate.state.devBranch, gate.state.generatedBranch].filter(Boolean);
  const hint = failure.hint ?? (kept.length ? `Branches kept for inspection: ${kept.join(', ')}` : undefined);
  const cause = (failure as { cause?: unknown }).cause;
  if (cause instanceof AuthError) return new AuthError(message, hint);
  if (cause instanceof NetworkError) return new NetworkError(message, hint);
  return new CliError(message, hint);
}

function pollSeconds(value: string | undefined): number {
  if (value === undefined) return 1;
  if (!/^\d*\.?\d+$/.test(value) || Number(value) <= 0 || Number(value) > 60)
    throw new UsageError(`--poll must be a number of seconds above 0 and at most 60, got "${value}"`);
  return Number(value);
}

function seconds(value: string | undefined, flag: string, fallback: number, zeroAllowed = false): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || (!zeroAllowed && Number(value) === 0))
    throw new UsageError(`${flag} must be a whole number of seconds, got "${value}"`);
  return Number(value);
}
