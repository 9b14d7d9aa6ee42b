/**
 * Every keyword of Cube's data model, where it may appear, and whether Plinth implements it.
 * The compiler checks each model file against this table (check-keywords.ts) so nothing the
 * engine does not understand passes silently, and README.md lists it keyword by keyword
 * (keywords-readme.ts; a test keeps both in step). Keywords are written in snake_case; the
 * camelCase spelling Cube also accepts (`sqlTable`, `primaryKey`) is derived, not listed.
 *
 * The list follows Cube's schema validator and its data model reference.
 */

/**
 * - `supported`: read and honoured.
 * - `accepted`: read and checked but has no effect on answers (caching and UI hints), said so in the README.
 * - `unsupported`: known Cube keyword the engine does not implement yet: a compile error.
 */
export type Support = 'supported' | 'accepted' | 'unsupported';

/** Where a keyword's value leads: a nested mapping, a list of mappings, or named members (list of `{name}` or map by name). */
export interface Nested {
  readonly shape: 'object' | 'list' | 'named';
  readonly context: ContextName;
}

export interface Keyword {
  readonly support: Support;
  /** What the README says beside the keyword. */
  readonly note?: string;
  readonly nested?: Nested;
  /** The value is not checked further (free-form data such as `meta`, or a whole block accepted as is). */
  readonly opaque?: boolean;
  /** The value must be `true` or `false`: a quoted "false" would otherwise read as true. */
  readonly boolean?: boolean;
}

const supported = (note?: string, nested?: Nested): Keyword => ({ support: 'supported', note, nested });
const unsupported = (note?: string): Keyword => ({ support: 'unsupported', note, opaque: true });
const accepted = (note: string): Keyword => ({ support: 'accepted', note, opaque: true });
const flag = (note?: string): Keyword => ({ support: 'supported', note, boolean: true });
const within = (shape: Nested['shape'], context: ContextName): Nested => ({ shape, context });
const META: Keyword = { support: 'supported', note: 'free-form, returned by /meta', opaque: true };
const REFRESH_KEY =
  '`every` (an interval or a cron string) and `sql`; a pre-aggregation without a refresh key of its own refreshes by it, and the data API reuses an answer read from this cube in the warehouse no longer than its `every` allows (its `sql` is run for pre-aggregations only)';
const VIEW_MEMBERS = 'members defined in the view itself; list cube members under `cubes[].includes`';

export type ContextName =
  | 'cube'
  | 'view'
  | 'view_cube'
  | 'view_include'
  | 'measure'
  | 'measure_filter'
  | 'dimension'
  | 'case'
  | 'case_when'
  | 'case_else'
  | 'case_label'
  | 'segment'
  | 'join'
  | 'pre_aggregation'
  | 'access_policy'
  | 'member_level'
  | 'row_level'
  | 'policy_filter';

export const CONTEXT_TITLES: Record<ContextName, string> = {
  cube: 'Cubes (`cubes:`)',
  view: 'Views (`views:`)',
  view_cube: 'Cube entries of a view (`views[].cubes[]`)',
  view_include: 'Member entries of a view include list (`includes: [{name: ...}]`)',
  measure: 'Measures',
  measure_filter: 'Measure filters (`measures[].filters[]`)',
  dimension: 'Dimensions',
  case: 'Dimension `case`',
  case_when: 'Dimension `case.when[]`',
  case_else: 'Dimension `case.else`',
  case_label: 'Dimension `case` label given as `{sql: ...}`',
  segment: 'Segments',
  join: 'Joins',
  pre_aggregation: 'Pre-aggregations',
  access_policy: 'Access policies (`access_policy[]`)',
  member_level: 'Access policy `member_level`',
  row_level: 'Access policy `row_level`',
  policy_filter: 'Access policy `row_level.filters[]`',
};

const COMMON_OWNER = {
  name: supported(),
  title: supported(),
  description: supported(),
  public: flag('false: left out of /meta, and a query selecting its members is refused (filters may use them)'),
  shown: flag('older spelling of `public`'),
  meta: META,
  extends: supported(
    'inherits members, joins, segments, pre-aggregations and everything else not set; chains; a cycle or missing parent is an error',
  ),
  sql_alias: accepted('alias of the cube in generated SQL; Plinth picks its own aliases'),
  data_source: unsupported('one warehouse per model'),
  refresh_key: accepted("a view answers as its cubes' refresh keys allow"),
  rewrite_queries: accepted('query rewriting hint for pre-aggregations'),
  hierarchies: {
    support: 'supported',
    note: 'name, title, levels (dimensions), public; a view takes those it includes; shown by /meta',
    opaque: true,
  },
  access_policy: supported('groups, member_level, row_level', within('list', 'access_policy')),
  calendar: unsupported('calendar cubes'),
} satisfies Record<string, Keyword>;

const COMMON_MEMBER = {
  name: supported(),
  title: supported(),
  description: supported(),
  public: flag(
    'false: left out of /meta, and a query selecting it is refused; filters, segments, order and model SQL still use it; a view shows every member it includes',
  ),
  shown: flag('older spelling of `public`'),
  meta: META,
  aliases: unsupported(),
} satisfies Record<string, Keyword>;

const MULTI_STAGE = {
  multi_stage: unsupported('multi-stage calculations'),
  add_group_by: unsupported('multi-stage calculations'),
  time_shift: unsupported('time-shifted measures'),
} satisfies Record<string, Keyword>;

export const KEYWORDS: Record<ContextName, Record<string, Keyword>> = {
  cube: {
    ...COMMON_OWNER,
    sql_table: supported(),
    sql: supported(),
    refresh_key: { support: 'supported', note: REFRESH_KEY, opaque: true },
    measures: supported(undefined, within('named', 'measure')),
    dimensions: supported(undefined, within('named', 'dimension')),
    segments: supported(undefined, within('named', 'segment')),
    joins: supported(undefined, within('named', 'join')),
    pre_aggregations: supported(
      'rollups built into Plinth\'s store (or, `external: false`, the source warehouse) and read by the planner when they answer a query exactly; see "Pre-aggregations" below',
      within('named', 'pre_aggregation'),
    ),
  },
  view: {
    ...COMMON_OWNER,
    cubes: supported(undefined, within('list', 'view_cube')),
    // Cube's schema lets a view hold members of its own that proxy cube members (its older form of views).
    measures: unsupported(VIEW_MEMBERS),
    dimensions: unsupported(VIEW_MEMBERS),
    segments: unsupported(VIEW_MEMBERS),
    joins: unsupported('joins of a view; a view reaches its cubes along `join_path`'),
    pre_aggregations: unsupported('pre-aggregations of a view'),
    folders: { support: 'supported', note: 'name, includes (member names, `"*"` or nested folders); shown by /meta', opaque: true },
  },
  view_cube: {
    join_path: supported(),
    prefix: flag(),
    alias: supported('used with `prefix: true`'),
    includes: supported('`"*"`, member names, or `{name, alias, title}`'),
    excludes: supported(),
    split: unsupported(),
  },
  view_include: {
    name: supported(),
    alias: supported(),
    title: supported(),
    description: unsupported('overriding a member description in a view'),
    format: unsupported('overriding a member format in a view'),
    meta: unsupported('overriding a member meta in a view'),
  },
  measure: {
    ...COMMON_MEMBER,
    ...MULTI_STAGE,
    type: supported('count, count_distinct, count_distinct_approx, sum, avg, min, max, number, string, time, boolean, running_total'),
    sql: supported(),
    format: supported('percent, currency, number'),
    filters: supported(undefined, within('list', 'measure_filter')),
    drill_members: supported('returned by /meta as `drillMembers` (in a view, those the view includes)'),
    drill_filters: unsupported(),
    drill_member_references: unsupported(),
    visible: unsupported('deprecated in Cube; use `public`'),
    cumulative: unsupported(),
    rolling_window: {
      support: 'supported',
      note: 'trailing, leading (an interval or unbounded), offset (start, end), type (fixed, to_date) with granularity',
      opaque: true,
    },
    group_by: unsupported('multi-stage calculations'),
    reduce_by: unsupported('multi-stage calculations'),
    order_by: unsupported('multi-stage ranks'),
  },
  measure_filter: {
    sql: supported(),
  },
  dimension: {
    ...COMMON_MEMBER,
    ...MULTI_STAGE,
    type: supported('string, number, time, boolean, geo'),
    sql: supported(),
    format: supported('a string format (imageUrl, link, currency, percent, number, id)'),
    primary_key: flag('hidden from /meta and from selection unless `public: true`, as in Cube'),
    case: supported(undefined, within('object', 'case')),
    sub_query: flag('a dimension computed from measures of other cubes, per primary key of its cube'),
    propagate_filters_to_sub_query: flag("the query's row filters on the subquery's cubes apply inside it too"),
    latitude: { support: 'supported', note: '`{sql: ...}` of a geo dimension', opaque: true },
    longitude: { support: 'supported', note: '`{sql: ...}` of a geo dimension', opaque: true },
    granularities: unsupported('custom time granularities'),
    values_as_segments: unsupported(),
    field_type: unsupported(),
    suggest_filter_values: accepted('suggestion hint for front ends'),
    enable_suggestions: accepted('suggestion hint for front ends'),
  },
  case: {
    when: supported(undefined, within('list', 'case_when')),
    else: supported(undefined, within('object', 'case_else')),
  },
  case_when: {
    sql: supported(),
    label: supported('a string or `{sql: ...}`', within('object', 'case_label')),
  },
  case_else: {
    label: supported('a string or `{sql: ...}`', within('object', 'case_label')),
  },
  case_label: {
    sql: supported(),
  },
  segment: {
    ...COMMON_MEMBER,
    sql: supported(),
  },
  join: {
    name: supported('the cube joined to'),
    relationship: supported('many_to_one, one_to_many, one_to_one (and belongs_to, has_many, has_one)'),
    sql: supported(),
  },
  pre_aggregation: {
    name: supported(),
    type: supported('rollup (the default), rollup_join, original_sql; rollup_lambda is a compile error'),
    measures: supported('count, sum, avg, min, max, count_distinct, count_distinct_approx; other types are a compile error'),
    dimensions: supported(),
    segments: supported('stored as a boolean column, so a query with or without the segment can use the rollup'),
    time_dimension: supported(),
    granularity: supported(),
    partition_granularity: supported('must hold whole buckets of `granularity` (a week rollup cannot be partitioned by month)'),
    refresh_key: supported("every, sql, incremental, update_window; without one, the cube's refresh key or every hour, as in Cube"),
    incremental: supported('older place of `refresh_key.incremental`'),
    update_window: supported('older place of `refresh_key.update_window`'),
    build_range_start: supported('`{sql: ...}`; without it, the least value of the time dimension'),
    build_range_end: supported('`{sql: ...}`; without it, the greatest value of the time dimension'),
    refresh_range_start: supported('older name of `build_range_start`'),
    refresh_range_end: supported('older name of `build_range_end`'),
    indexes: supported('checked (columns must be dimensions of the rollup); the store scans rollups, so they change no answer'),
    external: flag(
      "false: each partition is built as a table of the source warehouse (PostgreSQL or DuckDB), `prod_pre_aggregations.<partition>_<version>`, and read there with the source's SQL, instead of Plinth's rollup store; a refresh builds a new table and switches to it, the old one is dropped after a grace period. A read-only source, or a `count_distinct_approx` measure on PostgreSQL (no mergeable sketch), fails the refresh with the reason",
    ),
    allow_non_strict_date_range_match: flag('a date range not aligned to the granularity may still read the rollup'),
    rollups: supported(
      'of a rollup_join: the rollups it joins; it is built from the source as one rollup over its members, so it answers as they would',
    ),
    scheduled_refresh: accepted('Plinth refreshes every rollup in the background'),
    use_original_sql_pre_aggregations: accepted('rollups are built from the source tables'),
    sql_alias: accepted('Plinth names rollup tables `<cube>_<name>`'),
    time_dimension_reference: supported('older name of `time_dimension`'),
    measure_references: supported('older name of `measures`'),
    dimension_references: supported('older name of `dimensions`'),
    segment_references: supported('older name of `segments`'),
    rollup_references: supported('older name of `rollups`'),
    time_dimensions: unsupported('several time dimensions in one rollup'),
    union_with_source_data: unsupported('lambda pre-aggregations'),
    max_pre_aggregations: unsupported('lambda pre-aggregations'),
    unique_key_columns: unsupported('streaming pre-aggregations'),
    read_only: unsupported('streaming pre-aggregations'),
    stream_offset: unsupported('streaming pre-aggregations'),
    output_column_types: unsupported('streaming pre-aggregations'),
  },
  access_policy: {
    group: supported(),
    groups: supported(),
    role: supported('older spelling of `group`'),
    member_level: supported(undefined, within('object', 'member_level')),
    row_level: supported(undefined, within('object', 'row_level')),
    member_masking: unsupported('masking members instead of hiding them'),
    conditions: supported('a list of `if:` expressions over the security context, all of which must hold'),
  },
  member_level: {
    includes: supported(),
    excludes: supported(),
    includes_members: unsupported(),
    excludes_members: unsupported(),
  },
  row_level: {
    filters: supported(undefined, within('list', 'policy_filter')),
    allow_all: flag(),
  },
  policy_filter: {
    member: supported('a dimension of the cube or view (a measure or segment is a compile error)'),
    operator: supported(),
    values: supported(),
    and: supported(undefined, within('list', 'policy_filter')),
    or: supported(undefined, within('list', 'policy_filter')),
    member_reference: unsupported(),
  },
};

/** `sqlTable` → `sql_table`; snake_case names are returned as they are. */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
