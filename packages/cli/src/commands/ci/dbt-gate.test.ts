import { expect, it } from 'vitest';
import { type ApiKeyPrincipal, BROKEN_CUBE, countCube } from '@plinth/server/test-support';
import { HttpClient, type RequestOptions } from '../../core/http.js';
import { Output } from '../../core/output.js';
import { cliRunner, describeCli, type CliServer } from '../../test-support/harness.js';
import { deploymentWithModel, withRunner } from '../../test-support/cli-model.js';
import { newState, StepError, type Gate } from './context.js';
import { keepLease } from './lease.js';
import { enterDevMode, waitForDevBuild } from './steps.js';

const adminKey = async (ctx: CliServer): Promise<ApiKeyPrincipal> => {
  const key = await ctx.server.store.db.selectFrom('api_key').select('id').where('user_id', '=', ctx.admin.id).executeTakeFirstOrThrow();
  return { kind: 'apiKey', accountId: ctx.accountId, credentialId: key.id, userId: ctx.admin.id, role: 'admin', deploymentIds: null };
};

/** A gate on a real client, for the steps that need no dbt sync: the "generated" branch is a shared branch made here. */
const gateOn = (ctx: CliServer, deploymentId: number, generatedBranch: string): Gate & { notices: string[] } => {
  const notices: string[] = [];
  const io = { stdout: { write: () => true }, stderr: { write: (text: string) => notices.push(text.trim()) } } as never;
  const client = new HttpClient({ url: ctx.url, credential: ctx.admin.apiKey, scheme: 'api-key', source: 'test' }, 'test', async () => {});
  const state = { ...newState(), generatedBranch };
  const deadline = Date.now() + 60_000;
  const signal = new AbortController().signal;
  return { client, output: new Output(io, false), deploymentId, ref: 'r', signal, deadline, pollMs: 50, state, notices };
};

describeCli('plinth ci dbt-gate', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  const query = '{"measures":["a.count"]}';

  it('refuses an empty ref, a commit SHA (4.8 rule 5), a query or expectation that is not JSON, before any request', async () => {
    for (const [args, message] of [
      [['--ref', ''], '--ref is empty'],
      [['--ref', 'deadbeef12'], '--ref takes a branch or tag, not a commit SHA'],
      [['--ref', 'main', '--query', '{'], '--query is not valid JSON'],
      [['--ref', 'main', '--expect', '{"a":1}'], '--expect must be a JSON array of rows'],
      [['--ref', 'main', '--timeout', '0'], '--timeout must be a whole number of seconds'],
      [['--ref', 'main', '--poll', '0'], '--poll must be a number of seconds above 0 and at most 60'],
      [['--ref', 'main', '--poll', 'soon'], '--poll must be a number of seconds above 0 and at most 60'],
    ] as const) {
      const result = await plinth(['ci', 'dbt-gate', '1', '--query', query, ...args], { env: env() });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });

  it("a run of the same credential holding the lease: fails at the lease step, leaving that run's dev mode alone", async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const principal = await adminKey(ctx());
    const holder = await ctx().server.services.ciGate.start(principal, deploymentId, { ref: 'other' });
    await ctx().server.services.dataModel.devMode.enter(principal, deploymentId, 'main');
    const result = await plinth(['ci', 'dbt-gate', String(deploymentId), '--ref', 'main', '--query', query, '--wait', '0'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[lease] FAILED: ');
    expect(result.stderr).toContain(`gate failed at step "lease": CI run ${holder.runId} (ref "other"`);
    expect((await ctx().server.services.dataModel.devMode.status(principal, deploymentId)).active).toBe(true);
  });

  it('a failed sync fails the gate: dev mode is exited anyway, the lease finished, and --json says which step', async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const principal = await adminKey(ctx());
    // A dev-mode session left over by an earlier, killed run: the gate always exits dev mode.
    await ctx().server.services.dataModel.devMode.enter(principal, deploymentId, 'main');
    const args = ['ci', 'dbt-gate', String(deploymentId), '--ref', 'main', '--query', query, '--poll', '0.05', '--json'];
    const result = await plinth(args, { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('gate failed at step "sync"');
    expect(result.stderr).toContain('[exit-dev-mode] dev mode exited');
    const doc = JSON.parse(result.stdout);
    expect(doc).toMatchObject({
      passed: false,
      failedStep: 'sync',
      devModeExited: true,
      branchesDeleted: false,
      deploymentId,
      ref: 'main',
    });
    expect(doc.steps.map((s: { step: string; status: string }) => `${s.step}:${s.status}`)).toEqual([
      'lease:ok',
      'sync:failed',
      'exit-dev-mode:ok',
      'finish:ok',
    ]);
    expect((await ctx().server.services.dataModel.devMode.status(principal, deploymentId)).active).toBe(false);
    // The lease was handed on: the next run starts at once.
    expect((await ctx().server.services.ciGate.start(principal, deploymentId, { ref: 'next', waitSeconds: 0 })).state).toBe('active');
  });

  it("dev mode on the generated branch, then the dev branch's own build: built, or failed naming the compiler's error", async () => {
    const good = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const broken = await deploymentWithModel(ctx(), { 'model/cubes/broken.yml': BROKEN_CUBE });
    await withRunner(ctx(), async () => {
      const gate = gateOn(ctx(), good.deploymentId, 'main');
      await enterDevMode(gate);
      expect(gate.state.devBranch).toMatch(/^dev-/);
      await waitForDevBuild(gate);
      expect(gate.state.steps.map((s) => s.step)).toEqual(['dev-mode', 'build']);
      expect(gate.notices.at(-1)).toMatch(/^\[build\] build \d+ of dev-\w+ built \(1 cubes\)$/);

      const failing = gateOn(ctx(), broken.deploymentId, 'main');
      await enterDevMode(failing);
      const error = await waitForDevBuild(failing).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StepError);
      expect((error as StepError).step).toBe('build');
      expect((error as StepError).message).toMatch(/^build \d+ of dev-\w+ failed:\n {2}model\/cubes\/broken\.yml/);
    });
  });

  it('the lease is heartbeated while the gate runs, and a lease the server ended stops the gate', async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), { 'model/cubes/a.yml': countCube('a') });
    const principal = await adminKey(ctx());
    const run = await ctx().server.services.ciGate.start(principal, deploymentId, { ref: 'r' });
    const gate = gateOn(ctx(), deploymentId, 'main');
    const beats: string[] = [];
    let answered = 0;
    const request = gate.client.request.bind(gate.client);
    gate.client.request = async <T>(method: string, path: string, options?: RequestOptions) => {
      if (!path.endsWith('/heartbeat')) return request<T>(method, path, options);
      beats.push(path);
      const response = await request<T>(method, path, options);
      answered += 1;
      return response;
    };
    // A 4-second lease is beaten every second.
    const lost = new Promise<Error>((resolve) => {
      const stop = keepLease(gate, { ...run, leaseSeconds: 4 }, (reason) => {
        stop();
        resolve(reason);
      });
      const waitForBeat = setInterval(() => {
        if (answered === 0) return;
        clearInterval(waitForBeat);
        void ctx().server.services.ciGate.finish(principal, deploymentId, run.runId, 'failed');
      }, 50);
    });
    const reason = await lost;
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(reason.message).toMatch(new RegExp(`^the lease of run ${run.runId} was lost: CI run ${run.runId} .* has ended \\(failed\\)`));
  });
});
