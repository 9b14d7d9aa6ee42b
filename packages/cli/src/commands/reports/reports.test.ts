import { expect, it } from 'vitest';
import { sampleModelFiles, writeSample } from '@plinth/server/test-support';
import { deploymentWithModel, withRunner } from '../../test-support/cli-model.js';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth reports', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  const run = async (argv: string[], code = 0) => {
    const result = await plinth(argv, { env: env() });
    expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(code);
    return result;
  };

  it('create, list, get, update, folders and delete', async () => {
    const d = String((await ctx().server.services.deployments.create(ctx().accountId, { name: 'd' }, ctx().url)).id);
    const created = await run(['reports', 'create', d, '--name', 'Orders', '--json-query', '{"measures":["orders.count"]}', '--json']);
    const report = JSON.parse(created.stdout);
    expect(report).toMatchObject({ name: 'Orders', jsonQuery: '{"measures":["orders.count"]}', type: 'REPORT' });
    const id = String(report.id);
    await run(['reports', 'create', d, '--name', 'Second', '--sql-query', 'SELECT status FROM orders']);

    const listed = await run(['reports', 'list', d, '--sort-direction', 'ASC']);
    expect(listed.stdout).toMatch(/ID\s+NAME/i);
    expect(listed.stdout.indexOf('Orders')).toBeLessThan(listed.stdout.indexOf('Second'));
    const paged = await run(['reports', 'list', d, '--limit', '1', '--page', '2', '--sort-direction', 'ASC', '--json']);
    expect(JSON.parse(paged.stdout).data.map((r: { name: string }) => r.name)).toEqual(['Second']);
    const first = await run(['reports', 'list', d, '--first', '1']);
    expect(first.stderr).toMatch(/More results: add --after/);

    const shown = await run(['reports', 'get', d, id]);
    expect(shown.stdout).toMatch(/Public ID\s+[0-9A-Za-z]{12}/);
    const updated = await run(['reports', 'update', d, id, '--title', 'Orders count', '--json']);
    expect(JSON.parse(updated.stdout)).toMatchObject({ title: 'Orders count', version: 2 });

    const folders = await run(['reports', 'folders', d, '--json']);
    expect(JSON.parse(folders.stdout)).toEqual({ data: [] });

    const bad = await run(['reports', 'update', d, id, '--json-query', '{nope'], 1);
    expect(bad.stderr).toMatch(/jsonQuery is not valid JSON/);
    await run(['reports', 'delete', d, id]);
    const gone = await run(['reports', 'get', d, id], 1);
    expect(gone.stderr).toMatch(/Report \d+ not found/);
  });

  it('refresh prints the snapshot rows; a query that no longer runs exits 1 naming the error', async () => {
    const { deploymentId } = await deploymentWithModel(ctx(), sampleModelFiles());
    await withRunner(ctx(), () => ctx().server.jobs.runUntilIdle());
    await ctx().server.services.dataApi.warehouses.write(ctx().accountId, deploymentId, (warehouse) => writeSample(warehouse, { lineItems: 200 }));
    const d = String(deploymentId);
    const query = '{"measures":["orders.count"],"dimensions":["orders.status"],"order":{"orders.status":"asc"}}';
    const report = JSON.parse((await run(['reports', 'create', d, '--name', 'By status', '--json-query', query, '--json'])).stdout);

    const refreshed = await plinth(['reports', 'refresh', d, String(report.id)], { env: env(), stderrIsTTY: true });
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toMatch(new RegExp(`Refreshed report ${report.id}: \\d+ rows`));
    expect(refreshed.stdout).toMatch(/ORDERS\.COUNT\s+ORDERS\.STATUS\n\d+\s+[a-z]+/i);
    const json = JSON.parse((await run(['reports', 'get', d, String(report.id), '--json'])).stdout);
    expect(json.snapshot.data.length).toBeGreaterThan(0);

    await run(['reports', 'update', d, String(report.id), '--json-query', '{"measures":["orders.nope"]}']);
    const failed = await run(['reports', 'refresh', d, String(report.id)], 1);
    expect(failed.stderr).toMatch(/did not refresh: .*orders\.nope/);
  });
});
