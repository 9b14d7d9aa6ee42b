/**
 * Writes cube-sql.json: the SQL Cube 0.35.81's planner writes for each query of queries.ts over the
 * sample model, for bench/peer-queries.ts to time beside Plinth's. Cube is not a dependency of
 * Plinth; install its planner in a scratch directory first (its native part is not needed: scripts
 * off, Jinja unused because the model is given as JavaScript):
 *
 *   mkdir -p /tmp/cube && cd /tmp/cube && npm init -y && npm install --ignore-scripts @cubejs-backend/schema-compiler@0.35.81
 *   npx tsx bench/peer-queries/cube-sql.ts /tmp/cube
 *
 * Access policies and pre-aggregations are left out of the model on both sides' behalf: Cube 0.35
 * does not know the former, and the bench times the warehouse SQL of raw queries.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { sampleModelYaml } from '../../packages/semantic/src/sample/model.js';
import { PEER_QUERIES } from './queries.js';
import { SCHEMA } from './schema.js';

type Entry = Record<string, unknown> & { name: string };

const cubeDir = process.argv[2];
if (!cubeDir) throw new Error('usage: tsx bench/peer-queries/cube-sql.ts <directory with @cubejs-backend/schema-compiler installed>');
const cubeRequire = createRequire(join(cubeDir, 'package.json'));
const compilerDist = '@cubejs-backend/schema-compiler/dist/src';
const { prepareCompiler } = cubeRequire(`${compilerDist}/compiler/PrepareCompiler`);
const { PostgresQuery } = cubeRequire(`${compilerDist}/adapter/PostgresQuery`);
// Only the YAML path needs Cube's native module (Jinja); a JavaScript model never calls into it.
cubeRequire(`${compilerDist}/compiler/YamlCompiler`).YamlCompiler.prototype.initFromPythonContext = () => undefined;

/** The YAML model as Cube's JavaScript model: `{x}` references become template literals, lists become maps by name. */
function cubeJs(): string {
  const model = parse(sampleModelYaml(SCHEMA)) as { cubes: Entry[] };
  const literal = (sql: string): string => '`' + sql.replace(/\{([A-Za-z_][\w.]*)\}/g, '${$1}') + '`';
  const write = (value: unknown, key?: string): string => {
    if (Array.isArray(value)) return `[${value.map((item) => write(item)).join(', ')}]`;
    if (value && typeof value === 'object')
      return `{${Object.entries(value)
        .map(([k, v]) => `${/^[A-Za-z_]\w*$/.test(k) ? k : JSON.stringify(k)}: ${write(v, k)}`)
        .join(', ')}}`;
    return typeof value === 'string' && (key === 'sql' || key === 'sql_table') ? literal(value) : JSON.stringify(value);
  };
  const byName = (list: Entry[] = []): Record<string, unknown> => Object.fromEntries(list.map(({ name, ...rest }) => [name, rest]));
  return model.cubes
    .map(({ name, joins, dimensions, measures, segments, access_policy: _policy, pre_aggregations: _rollups, ...rest }) => {
      const body = {
        ...rest,
        joins: byName(joins as Entry[]),
        dimensions: byName(dimensions as Entry[]),
        measures: byName(measures as Entry[]),
        segments: byName(segments as Entry[]),
      };
      return `cube(${JSON.stringify(name)}, ${write(body)});`;
    })
    .join('\n');
}

const repository = { localPath: () => cubeDir, dataSchemaFiles: async () => [{ fileName: 'sample.js', content: cubeJs() }] };
const { compiler, joinGraph, cubeEvaluator } = prepareCompiler(repository, { adapter: 'postgres' });
await compiler.compile();
const written = PEER_QUERIES.map(({ name, query }) => {
  // As Cube's gateway hands a query to its planner: order as a list, the limit as the row limit.
  const order = Object.entries(query.order ?? {}).map(([id, direction]) => ({ id, desc: direction === 'desc' }));
  const options = { ...query, ...(order.length > 0 ? { order } : {}), rowLimit: query.limit ?? 10_000, timezone: 'UTC' };
  const [sql, params] = new PostgresQuery({ joinGraph, cubeEvaluator, compiler }, options).buildSqlAndParams();
  return { name, sql, params };
});
const out = fileURLToPath(new URL('cube-sql.json', import.meta.url));
writeFileSync(out, `${JSON.stringify({ cube: '@cubejs-backend/schema-compiler 0.35.81', schema: SCHEMA, queries: written }, null, 1)}\n`);
process.stderr.write(`wrote ${written.length} queries to ${out}\n`);
