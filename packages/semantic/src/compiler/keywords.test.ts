import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { sampleModelFiles } from '../sample/sample.js';
import { compile } from './compile.js';
import { KEYWORDS, type ContextName } from './keywords.js';
import { keywordsReadme, README_BEGIN, README_END } from './keywords-readme.js';

type Obj = Record<string, unknown>;

const ID = { name: 'id', sql: 'id', type: 'number', primary_key: true };

/** A valid model with `extra` put into the mapping of the given context; undefined where no such place can hold extra keys. */
function modelWith(context: ContextName, extra: Obj): Obj | undefined {
  const cube = (fields: Obj = {}, dimension: Obj = {}): Obj => ({
    cubes: [{ name: 'orders', sql_table: 'orders', dimensions: [{ ...ID, ...dimension }], ...fields }],
  });
  const policy = (fields: Obj): Obj => cube({ access_policy: [{ group: '*', ...fields }] });
  const view = (entry: Obj = {}, fields: Obj = {}): Obj => ({
    ...cube(),
    views: [{ name: 'orders_view', cubes: [{ join_path: 'orders', includes: '*', ...entry }], ...fields }],
  });
  const caseOf = (caseValue: Obj): Obj => cube({ dimensions: [ID, { name: 'size', type: 'string', case: caseValue }] });
  switch (context) {
    case 'cube':
      return cube(extra);
    case 'view':
      return view({}, extra);
    case 'view_cube':
      return view(extra);
    case 'view_include':
      return view({ includes: [{ name: 'id', ...extra }] });
    case 'measure':
      return cube({ measures: [{ name: 'count', type: 'count', ...extra }] });
    case 'measure_filter':
      return cube({ measures: [{ name: 'count', type: 'count', filters: [{ sql: '1 = 1', ...extra }] }] });
    case 'dimension':
      return cube({}, extra);
    case 'case':
      return caseOf({ when: [{ sql: '1 = 1', label: 'one' }], ...extra });
    case 'case_when':
      return caseOf({ when: [{ sql: '1 = 1', label: 'one', ...extra }] });
    case 'case_else':
      return caseOf({ when: [{ sql: '1 = 1', label: 'one' }], else: { label: 'other', ...extra } });
    case 'case_label':
      return caseOf({ when: [{ sql: '1 = 1', label: { sql: "'one'", ...extra } }] });
    case 'segment':
      return cube({ segments: [{ name: 'big', sql: '{CUBE}.id > 10', ...extra }] });
    case 'join':
      return cube({ joins: [{ name: 'orders', relationship: 'many_to_one', sql: '1 = 1', ...extra }] });
    case 'pre_aggregation':
      return cube({ pre_aggregations: [{ name: 'main', type: 'rollup', dimensions: ['CUBE.id'], ...extra }] });
    case 'access_policy':
      return policy(extra);
    case 'member_level':
      return policy({ member_level: { includes: '*', ...extra } });
    case 'row_level':
      return policy({ row_level: { allow_all: true, ...extra } });
    case 'policy_filter':
      return policy({ row_level: { filters: [{ member: 'id', operator: 'equals', values: [1], ...extra }] } });
  }
}

const CONTEXTS = Object.keys(KEYWORDS) as ContextName[];
const UNSUPPORTED = CONTEXTS.flatMap((context) =>
  Object.entries(KEYWORDS[context])
    .filter(([, keyword]) => keyword.support === 'unsupported')
    .map(([keyword]) => ({ context, keyword })),
);

/** 1-based line of the last `key:` in the text (a view's `dimensions:` follows its cube's), to check the error points at it. */
function lineOf(text: string, key: string): number {
  return text.split('\n').findLastIndex((line) => new RegExp(`(^|[\\s-])${key}:`).test(line)) + 1;
}

/**
 * Every key Cube's schema validator (CubeValidator.ts) accepts, by the place Plinth's table calls it,
 * in snake_case. Keys Cube's compiler sets itself (`file_name`, `is_view`, `all_definitions`, …) are
 * not written in models and are left out.
 */
const CUBE_VALIDATOR_KEYWORDS: Partial<Record<ContextName, readonly string[]>> = {
  cube: [
    ...['name', 'refresh_key', 'extends', 'title', 'sql_alias', 'data_source', 'description', 'rewrite_queries', 'shown', 'public'],
    ...['meta', 'joins', 'measures', 'dimensions', 'segments', 'pre_aggregations', 'access_policy', 'hierarchies'],
    ...['sql', 'sql_table', 'calendar'],
  ],
  view: [
    ...['name', 'refresh_key', 'extends', 'title', 'sql_alias', 'data_source', 'description', 'rewrite_queries', 'shown', 'public'],
    ...['meta', 'joins', 'measures', 'dimensions', 'segments', 'pre_aggregations', 'access_policy', 'hierarchies', 'cubes', 'folders'],
  ],
  view_cube: ['join_path', 'prefix', 'split', 'alias', 'includes', 'excludes'],
  view_include: ['name', 'alias', 'title', 'description', 'format', 'meta'],
  measure: [
    ...['name', 'aliases', 'format', 'public', 'visible', 'shown', 'cumulative', 'filters', 'title', 'description', 'rolling_window'],
    ...['drill_member_references', 'drill_members', 'drill_filters', 'meta', 'type', 'sql', 'multi_stage', 'group_by', 'reduce_by'],
    ...['add_group_by', 'time_shift', 'order_by'],
  ],
  measure_filter: ['sql'],
  dimension: [
    ...['name', 'aliases', 'type', 'field_type', 'values_as_segments', 'primary_key', 'shown', 'public', 'title', 'description'],
    ...['suggest_filter_values', 'enable_suggestions', 'format', 'meta', 'granularities', 'sub_query', 'propagate_filters_to_sub_query'],
    ...['case', 'latitude', 'longitude', 'sql', 'multi_stage', 'add_group_by', 'time_shift'],
  ],
  case: ['when', 'else'],
  case_when: ['sql', 'label'],
  case_else: ['label'],
  case_label: ['sql'],
  segment: ['name', 'aliases', 'sql', 'title', 'description', 'meta', 'shown', 'public'],
  join: ['name', 'sql', 'relationship'],
  pre_aggregation: [
    ...['name', 'type', 'refresh_key', 'sql_alias', 'use_original_sql_pre_aggregations', 'external', 'scheduled_refresh', 'indexes'],
    ...['refresh_range_start', 'refresh_range_end', 'build_range_start', 'build_range_end', 'read_only', 'stream_offset'],
    ...['output_column_types', 'partition_granularity', 'max_pre_aggregations', 'unique_key_columns', 'time_dimension_reference'],
    ...['allow_non_strict_date_range_match', 'rollup_references', 'measure_references', 'dimension_references', 'segment_references'],
    ...['time_dimension', 'time_dimensions', 'granularity', 'rollups', 'measures', 'dimensions', 'segments', 'union_with_source_data'],
  ],
  access_policy: ['role', 'group', 'groups', 'member_level', 'row_level', 'conditions'],
  member_level: ['includes', 'excludes', 'includes_members', 'excludes_members'],
  row_level: ['filters', 'allow_all'],
  policy_filter: ['member', 'member_reference', 'operator', 'values', 'or', 'and'],
};

describe('model keywords', () => {
  it.each(Object.entries(CUBE_VALIDATOR_KEYWORDS))('lists every keyword Cube’s validator knows in %s', (context, keywords) => {
    const known = KEYWORDS[context as ContextName];
    expect(keywords.filter((keyword) => !Object.hasOwn(known, keyword))).toEqual([]);
  });

  it('the sample model uses only supported keywords', () => {
    expect(compile(sampleModelFiles()).errors).toEqual([]);
  });

  it.each(CONTEXTS)('each place (%s) is valid without extra keys', (context) => {
    const model = modelWith(context, {});
    expect(compile({ 'model/m.yml': stringify(model) }).errors).toEqual([]);
  });

  it.each(UNSUPPORTED)('rejects $keyword in $context, naming file, place, keyword and line', ({ context, keyword }) => {
    const text = stringify(modelWith(context, { [keyword]: true }));
    const result = compile({ 'model/cubes/orders.yml': text });
    const error = result.errors.find((e) => e.message.includes(`: ${keyword} is not supported by Plinth yet`));
    expect(error, JSON.stringify(result.errors)).toMatchObject({ fileName: 'model/cubes/orders.yml', line: lineOf(text, keyword) });
    expect(result.valid).toBe(false);
  });

  it.each(CONTEXTS)('rejects an unknown keyword in %s', (context) => {
    const text = stringify(modelWith(context, { no_such_keyword: 1 }));
    const result = compile({ 'model/m.yml': text });
    const error = result.errors.find((e) => e.message.includes('unknown keyword `no_such_keyword`'));
    expect(error, JSON.stringify(result.errors)).toMatchObject({ fileName: 'model/m.yml', line: lineOf(text, 'no_such_keyword') });
  });

  it('names the member and accepts camelCase spellings as Cube does', () => {
    const text = stringify({
      cubes: [
        {
          name: 'orders',
          sqlTable: 'orders',
          dimensions: [{ ...ID, primary_key: undefined, primaryKey: true }],
          measures: [{ name: 'revenue_prior', type: 'sum', sql: 'amount', timeShift: [{ interval: '1 year', type: 'prior' }] }],
        },
      ],
    });
    const result = compile({ 'model/cubes/orders.yml': text });
    expect(result.errors).toEqual([
      {
        fileName: 'model/cubes/orders.yml',
        message: 'cube orders, measures.revenue_prior: timeShift is not supported by Plinth yet (time-shifted measures)',
        line: lineOf(text, 'timeShift'),
        column: expect.any(Number) as number,
      },
    ]);
    expect(result.model.cubes.get('orders')?.primaryKey).toBe('id');
  });

  it.each([
    { name: 'both spellings of one keyword', cube: { sql_table: 'a', sqlTable: 'b' }, message: /cube orders: `sqlTable` is given twice/ },
    {
      name: 'both sql_table and sql',
      cube: { sql_table: 'a', sql: 'SELECT 1' },
      message: /Cube orders has both `sql_table` and `sql`; use one/,
    },
    {
      name: 'a quoted boolean',
      cube: { sql_table: 'a', public: 'false' },
      message: /cube orders: public must be true or false, not "false"/,
    },
    { name: 'members given as a string', cube: { sql_table: 'a', measures: 'count' }, message: /cube orders: measures must be a list/ },
    {
      name: 'member_level given as a string',
      cube: { sql_table: 'a', access_policy: [{ group: '*', member_level: 'none' }] },
      message: /cube orders, access_policy\[0\]: member_level must be a mapping/,
    },
    { name: 'a key named __proto__', cube: { sql_table: 'a', ['__proto__']: { public: false } }, message: /unknown keyword `__proto__`/ },
  ])('rejects $name', ({ cube, message }) => {
    const text = `cubes:\n  - name: orders\n${Object.entries(cube)
      .map(([key, value]) => `    ${key}: ${JSON.stringify(value)}\n`)
      .join('')}`;
    const result = compile({ 'model/m.yml': text });
    expect(result.errors.map((e) => e.message).join('\n')).toMatch(message);
  });

  it('packages/semantic/README.md lists every keyword as keywords.ts says', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf(README_BEGIN);
    const end = readme.indexOf(README_END);
    expect(start, 'README markers').toBeGreaterThan(-1);
    // On failure, regenerate with: npx tsx packages/semantic/src/compiler/keywords-readme.ts
    expect(readme.slice(start, end + README_END.length)).toBe(keywordsReadme());
  });
});
