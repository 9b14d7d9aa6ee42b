import { expect, it } from 'vitest';
import { sampleModelFiles, writeSample } from '@plinth/server/test-support';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { deploymentWithModel, withRunner } from '../../test-support/cli-model.js';
import { sqlTable } from './sql.js';

describeCli('plinth sql', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

  async function withData() {
    const { deploymentId } = await deploymentWithModel(ctx(), sampleModelFiles());
    await withRunner(ctx(), () => ctx().server.jobs.runUntilIdle());
    await ctx().server.services.dataApi.warehouses.write(ctx().accountId, deploymentId, (warehouse) =>
      writeSample(warehouse, { lineItems: 200 }),
    );
    return deploymentId;
  }

  it('prints the rows as a table under the column names; --json passes the lines through', async () => {
    const deploymentId = await withData();
    const sql = 'SELECT status, MEASURE(count) AS orders FROM orders GROUP BY 1 ORDER BY 1';
    const result = await plinth(['sql', String(deploymentId), sql], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^STATUS +ORDERS$/);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => /^[a-z]+ +\d+$/.test(row))).toBe(true);

    const json = await plinth(['sql', String(deploymentId), sql, '--json'], { env: env() });
    expect(json.code, json.stderr).toBe(0);
    const lines = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0].schema.map((c: { name: string }) => c.name)).toEqual(['status', 'orders']);
    expect(lines.slice(1).flatMap((line: { data: unknown[][] }) => line.data)).toHaveLength(rows.length);
  });

  it('SQL the translation refuses fails with the server message; --branch picks the dev-mode URL', async () => {
    const deploymentId = await withData();
    const join = await plinth(['sql', String(deploymentId), 'SELECT o.id FROM orders o JOIN customers c ON o.customer_id = c.id'], {
      env: env(),
    });
    expect(join.code).not.toBe(0);
    expect(join.stderr).toMatch(/JOIN ... ON takes only a.__cubeJoinField = b.__cubeJoinField/);
    const branch = await plinth(['sql', String(deploymentId), 'SELECT MEASURE(count) FROM orders', '--branch', 'nope'], { env: env() });
    expect(branch.code).not.toBe(0);
    expect(branch.stderr).toMatch(/nope/);
  });
});

it('sqlTable reads every data line, and a schema line alone is an empty table', () => {
  const text = [
    '{"schema":[{"name":"a","column_type":"Utf8"},{"name":"n","column_type":"Int64"}]}',
    '{"data":[["x",1]]}',
    '{"data":[["y",null]]}',
  ].join('\n');
  expect(sqlTable(text)).toEqual({ table: 'A  N\nx  1\ny\n', rows: 2 });
  expect(sqlTable('{"schema":[{"name":"a","column_type":"Utf8"}]}\n')).toEqual({ table: 'A\n', rows: 0 });
});
