import { expect, it } from 'vitest';
import { eventsModel, literalModel } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { deploymentWithModel } from '../../test-support/cli-model.js';

describeCli('plinth pre-aggregations', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

  async function built(files: Record<string, string>) {
    const { deploymentId } = await deploymentWithModel(ctx(), files);
    await ctx().server.jobs.runUntilIdle();
    return String(deploymentId);
  }

  it('list shows partitions, rows, size and errors; build queues jobs that status shows; preview prints stored rows', async () => {
    const id = await built(literalModel());
    const list = await plinth(['pre-aggregations', 'list', id], { env: env() });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toMatch(/^Build \d+: ready\n$/);
    const [header, row, ...rest] = list.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID +STORED IN +PARTITIONS +ROWS +SIZE +LAST REFRESH +BUILD MS +ERROR$/);
    expect(row).toMatch(/^events\.daily +rollup store +1\/1 +1 +\d+(\.\d)? (B|KiB) +\d{4}-\d\d-\d\dT[\d:.]+Z +\d+ *$/);
    expect(rest).toEqual([]);

    const build = await plinth(['pre-aggregations', 'build', id, 'events.daily', '--partition', 'events_daily202401'], { env: env() });
    expect(build.code, build.stderr).toBe(0);
    expect(build.stdout).toMatch(/^JOB +PRE-AGGREGATION +BUILD +PARTITIONS +STATE .*\n\d+ +events\.daily +\d+ +events_daily202401 +queued/);
    await ctx().server.jobs.runUntilIdle();
    const status = await plinth(['pre-aggregations', 'status', id, '--json'], { env: env() });
    expect(status.code, status.stderr).toBe(0);
    const jobs = JSON.parse(status.stdout).items;
    expect(jobs.map((job: { state: string; partitions: string[] | null }) => [job.state, job.partitions])).toEqual([
      ['succeeded', ['events_daily202401']],
      ['succeeded', null],
    ]);

    const preview = await plinth(['pre-aggregations', 'preview', id, 'events.daily'], { env: env() });
    expect(preview.code, preview.stderr).toBe(0);
    const lines = preview.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^EVENTS__KIND +EVENTS__CREATED_AT_DAY +EVENTS__COUNT/);
    expect(lines[1]).toMatch(/^a +2024-01-02 00:00:00 +1 /);
    const json = await plinth(['pre-aggregations', 'preview', id, 'events.daily', '--limit', '1', '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toMatchObject({
      preAggregation: 'events.daily',
      data: [expect.objectContaining({ events__kind: 'a' })],
    });
  });

  it('a rollup kept in the source warehouse (external: false) shows where it lives, and preview reads its table there', async () => {
    const files = literalModel();
    files['model/events.yml'] += '        external: false\n';
    const id = await built(files);
    const list = await plinth(['pre-aggregations', 'list', id], { env: env() });
    expect(list.code, list.stderr).toBe(0);
    // The embedded DuckDB warehouse tells no table's size.
    expect(list.stdout.trimEnd().split('\n')[1]).toMatch(/^events\.daily +warehouse +1\/1 +1 +- +\d{4}-/);
    const json = JSON.parse((await plinth(['pre-aggregations', 'list', id, '--json'], { env: env() })).stdout);
    expect(json.items[0]).toMatchObject({
      storedIn: 'warehouse',
      partitions: [{ table: expect.stringMatching(/^prod_pre_aggregations\.events_daily\d+_[0-9a-f]+$/) }],
    });
    const preview = await plinth(['pre-aggregations', 'preview', id, 'events.daily'], { env: env() });
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout.trimEnd().split('\n')[1]).toMatch(/^a +2024-01-02 00:00:00 +1 /);
  });

  it('a rollup that fails shows its error; unknown rollups and bad input are refused', async () => {
    const id = await built(eventsModel('no_such_table'));
    const list = await plinth(['pre-aggregations', 'list', id, '--json'], { env: env() });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).items[0].lastError).toContain('no_such_table');
    const table = await plinth(['pre-aggregations', 'list', id], { env: env() });
    expect(table.stdout).toMatch(/events\.daily +rollup store +0\/0 .*no_such_table/);
    const missing = await plinth(['pre-aggregations', 'build', id, 'events.nope'], { env: env() });
    expect(missing).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/error: Pre-aggregation events.nope not found in build \d+ \(HTTP 404\)/),
    });
    const unbuilt = await plinth(['pre-aggregations', 'preview', id, 'events.daily'], { env: env() });
    expect(unbuilt).toMatchObject({ code: 1, stderr: expect.stringContaining('Pre-aggregation events.daily is not built yet (HTTP 400)') });
    expect(await plinth(['pre-aggregations', 'list', 'abc'], { env: env() })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('deployment_id'),
    });
    const member = await plinth(['pre-aggregations', 'build', id], { env: { ...env(), PLINTH_API_KEY: ctx().member.apiKey } });
    expect(member).toMatchObject({ code: 1, stderr: expect.stringContaining('(HTTP 403)') });
  });
});
