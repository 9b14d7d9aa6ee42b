import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The build of this checkout, brought up to date before the run (server/src/test-support/global-setup.ts).
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plinth-semantic-cli-'));

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: PACKAGE }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('plinth-semantic', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('validate, sql, sample and load on a DuckDB file', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(join(bad, 'model'), { recursive: true });
    writeFileSync(join(bad, 'model', 'a.yml'), 'cubes:\n  - name: a\n');
    const invalid = await run(['validate', bad]);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stdout)).toMatchObject({ valid: false, errors: [{ fileName: 'model/a.yml' }], cubesCount: 1 });
    expect(invalid.stderr).toMatch(/^model\/a\.yml:2: Cube a needs `sql_table` or `sql`$/m);

    // JavaScript and Jinja model files, with the compile context given on the command line.
    const mixed = join(dir, 'mixed');
    mkdirSync(join(mixed, 'model', 'cubes'), { recursive: true });
    writeFileSync(
      join(mixed, 'model', 'cubes', 'a.js'),
      'cube(`a`, { sqlTable: `${COMPILE_CONTEXT.schema}.a`, measures: { count: { type: `count` } } });\n',
    );
    writeFileSync(join(mixed, 'model', 'b.yml'), 'cubes:\n  - name: b\n    sql_table: {{ COMPILE_CONTEXT.schema }}.b\n');
    const mixedSql = await run(['sql', mixed, '--query', '{"measures":["a.count"]}', '--compile-context', '{"schema":"tenant_1"}']);
    expect(JSON.parse(mixedSql.stdout)).toMatchObject({ sql: expect.stringContaining('tenant_1.a') as string });
    writeFileSync(join(mixed, 'model', 'globals.py'), 'x = 1\n');
    const python = await run(['validate', mixed]);
    expect(python.code).toBe(1);
    expect(python.stderr).toMatch(/^model\/globals\.py: Python model files are not supported/m);

    const db = join(dir, 'sample.duckdb');
    const modelDir = join(dir, 'sample-model');
    expect((await run(['sample', '--warehouse', `duckdb:${db}`, '--scale', '2000', '--model', modelDir])).code).toBe(0);
    const valid = await run(['validate', modelDir]);
    expect(JSON.parse(valid.stdout)).toEqual({ valid: true, errors: [], cubesCount: 5 });

    const sql = await run([
      'sql',
      modelDir,
      '--query',
      '{"measures":["orders.count"],"filters":[{"member":"orders.status","operator":"equals","values":["x"]}]}',
      '--caller',
      '{"groups":["admin"]}',
    ]);
    expect(JSON.parse(sql.stdout)).toMatchObject({ params: ['x', 10000] });

    const loaded = await run([
      'load',
      modelDir,
      '--warehouse',
      `duckdb:${db}`,
      '--query',
      '{"measures":["sales.count"]}',
      '--caller',
      '{"groups":[]}',
    ]);
    expect(JSON.parse(loaded.stdout)).toMatchObject({
      data: [{ 'sales.count': '2000' }],
      annotation: { measures: { 'sales.count': { type: 'number' } } },
    });

    // compareDateRange and blending are answered as the data API answers them, one result per query.
    const compared = await run([
      'load',
      modelDir,
      '--warehouse',
      `duckdb:${db}`,
      '--query',
      JSON.stringify({
        measures: ['orders.count'],
        timeDimensions: [
          {
            dimension: 'orders.created_at',
            compareDateRange: [
              ['2000-01-01', '2099-12-31'],
              ['1900-01-01', '1900-12-31'],
            ],
          },
        ],
      }),
    ]);
    expect(compared.code, compared.stderr).toBe(0);
    const comparison = JSON.parse(compared.stdout);
    expect(comparison.queryType).toBe('compareDateRangeQuery');
    expect(comparison.results.map((r: { data: Array<Record<string, unknown>> }) => r.data.map((row) => row['compareDateRange']))).toEqual([
      ['2000-01-01T00:00:00.000 - 2099-12-31T23:59:59.999'],
      ['1900-01-01T00:00:00.000 - 1900-12-31T23:59:59.999'],
    ]);
    const blended = await run([
      'load',
      modelDir,
      '--warehouse',
      `duckdb:${db}`,
      '--query',
      JSON.stringify([
        { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' }] },
        { measures: ['customers.count'], timeDimensions: [{ dimension: 'customers.created_at', granularity: 'year' }] },
      ]),
    ]);
    expect(blended.code, blended.stderr).toBe(0);
    expect(JSON.parse(blended.stdout)).toMatchObject({
      queryType: 'blendingQuery',
      results: [{ data: expect.any(Array) }, { data: expect.any(Array) }],
    });

    const refused = await run(['load', modelDir, '--warehouse', `duckdb:${db}`, '--query', '{"measures":["nope.count"]}']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Cube 'nope' not found for path 'nope.count'");
  });
}, 60_000);
