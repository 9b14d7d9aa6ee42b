/**
 * The compiled data model: what the compiler produces and the planner reads.
 * SQL snippets are kept as pre-parsed templates so planning never re-scans model text.
 */

export const MEASURE_TYPES = [
  'count',
  'count_distinct',
  'count_distinct_approx',
  'sum',
  'avg',
  'min',
  'max',
  'number',
  'string',
  'time',
  'boolean',
] as const;
export type MeasureType = (typeof MEASURE_TYPES)[number];

export const DIMENSION_TYPES = ['string', 'number', 'time', 'boolean', 'geo'] as const;
export type DimensionType = (typeof DIMENSION_TYPES)[number];

export type Relationship = 'many_to_one' | 'one_to_many' | 'one_to_one';

/** A reference inside `{...}` in model SQL, resolved against the model at compile time. */
export type TemplateRef = { kind: 'cube'; cube: string } | { kind: 'member'; cube: string; member: string } | ContextRef;

/**
 * How `filter(...)` writes a condition: on a SQL column, or through a lambda whose arguments are
 * the bound-parameter placeholders (`lambda x, y: f"... {x} ... {y}"`).
 */
export type FilterColumn =
  | { readonly kind: 'column'; readonly sql: string }
  | { readonly kind: 'lambda'; readonly params: readonly string[]; readonly body: ReadonlyArray<string | number> };

export interface FilterParamRef {
  readonly cube: string;
  readonly member: string;
  readonly column: FilterColumn;
}

/**
 * References whose value is known only when a query is planned for a caller. Their values always
 * reach the warehouse as bound parameters.
 */
export type ContextRef =
  /** `{securityContext.x}`, `{SECURITY_CONTEXT.x}` and `{SECURITY_CONTEXT.x.unsafeValue()}`. */
  | { readonly kind: 'securityValue'; readonly path: readonly string[] }
  /** `{SECURITY_CONTEXT.x.filter(...)}` and `.requiredFilter(...)`. */
  | { readonly kind: 'securityFilter'; readonly path: readonly string[]; readonly column: FilterColumn; readonly required: boolean }
  /** `{FILTER_PARAMS.cube.member.filter(...)}` (one entry) and `{FILTER_GROUP(...)}` (several). */
  | { readonly kind: 'filterParams'; readonly group: readonly FilterParamRef[] }
  /** A compile-time value (`{COMPILE_CONTEXT.x}`) in SQL: still bound, never spliced. */
  | { readonly kind: 'constant'; readonly value: string | number | boolean | null };

/** Model SQL split into literal text and references, alternating. */
export interface SqlTemplate {
  readonly text: string;
  readonly parts: ReadonlyArray<string | TemplateRef>;
}

export interface MemberBase {
  readonly cube: string;
  readonly name: string;
  /** `cube.member`, the name queries use. */
  readonly path: string;
  readonly title: string;
  readonly shortTitle: string;
  readonly description?: string;
  readonly public: boolean;
  readonly meta?: unknown;
}

export const WINDOW_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type WindowUnit = (typeof WINDOW_UNITS)[number];

/** One side of a rolling window: `7 day` (count may be negative, as Cube allows) or `unbounded`. */
export type WindowBound = 'unbounded' | { readonly count: number; readonly unit: WindowUnit };

/**
 * How a cumulative measure aggregates over time (Cube's `rolling_window` and `running_total`):
 * each period's value aggregates the rows of a window placed relative to that period.
 */
export type RollingWindow =
  | { readonly kind: 'window'; readonly trailing?: WindowBound; readonly leading?: WindowBound; readonly offset: 'start' | 'end' }
  | { readonly kind: 'to_date'; readonly granularity: WindowUnit }
  /** From the start of the query's date range up to the end of each period. */
  | { readonly kind: 'running_total' };

export interface Measure extends MemberBase {
  readonly kind: 'measure';
  /** A `running_total` measure is kept as `sum` with a `running_total` window. */
  readonly type: MeasureType;
  readonly sql?: SqlTemplate;
  readonly filters: readonly SqlTemplate[];
  readonly format?: string;
  /** `drill_members`: `cube.member` paths a front end lists when drilling into a value of this measure. */
  readonly drillMembers?: readonly string[];
  readonly rollingWindow?: RollingWindow;
}

export interface CaseWhen {
  readonly when: ReadonlyArray<{ sql: SqlTemplate; label: string | SqlTemplate }>;
  readonly else?: string | SqlTemplate;
}

export interface Dimension extends MemberBase {
  readonly kind: 'dimension';
  readonly type: DimensionType;
  readonly sql?: SqlTemplate;
  readonly case?: CaseWhen;
  readonly primaryKey: boolean;
  readonly format?: string;
  /** A `geo` dimension's coordinates; its value is `latitude,longitude` as Cube renders it. */
  readonly latitude?: SqlTemplate;
  readonly longitude?: SqlTemplate;
  /** `sub_query: true`: the SQL refers to measures of other cubes, computed per row of this cube in a subquery. */
  readonly subQuery?: boolean;
  /** `propagate_filters_to_sub_query: true`: the query's filters on the subquery's cubes apply inside it too. */
  readonly propagateFiltersToSubQuery?: boolean;
}

export interface Segment extends MemberBase {
  readonly kind: 'segment';
  readonly sql: SqlTemplate;
}

export type Member = Measure | Dimension | Segment;

export interface Join {
  readonly from: string;
  readonly to: string;
  readonly relationship: Relationship;
  readonly sql: SqlTemplate;
}

export interface PolicyFilter {
  readonly member?: string;
  readonly operator?: string;
  readonly values?: readonly unknown[];
  readonly and?: readonly PolicyFilter[];
  readonly or?: readonly PolicyFilter[];
}

/** An `if:` expression of an access policy condition, over the caller's security context. */
export type ConditionExpr =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'ref'; readonly root: 'securityContext' | 'userAttributes'; readonly path: readonly string[] }
  | { readonly kind: 'list'; readonly items: readonly ConditionExpr[] }
  | { readonly kind: 'not'; readonly operand: ConditionExpr }
  | { readonly kind: 'and' | 'or'; readonly operands: readonly ConditionExpr[] }
  | {
      readonly kind: 'compare';
      readonly op: '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in';
      readonly left: ConditionExpr;
      readonly right: ConditionExpr;
    };

export interface AccessPolicy {
  /** Groups the policy applies to; `*` means everyone. */
  readonly groups: readonly string[];
  /** `conditions`: all must hold for the policy to apply (Cube ANDs them). */
  readonly conditions?: readonly ConditionExpr[];
  /** Member names (without cube prefix) the policy exposes; undefined = all. */
  readonly includes: '*' | readonly string[];
  readonly excludes: readonly string[];
  /** undefined = every row. */
  readonly rowFilters?: readonly PolicyFilter[];
}

/** A drill-down path through dimensions, shown by `meta`; levels are member names of the owning cube or view. */
export interface Hierarchy {
  readonly name: string;
  readonly title?: string;
  readonly levels: readonly string[];
  readonly public: boolean;
  /** In a view: the cube hierarchy it comes from, `cube.hierarchy`. */
  readonly aliasMember?: string;
}

/** A named group of members for front ends, shown by `meta`; folders nest. Members are names within the owner. */
export interface Folder {
  readonly name: string;
  readonly members: ReadonlyArray<string | Folder>;
}

export interface Cube {
  readonly kind: 'cube';
  readonly name: string;
  readonly fileName: string;
  readonly title: string;
  readonly description?: string;
  readonly public: boolean;
  readonly meta?: unknown;
  readonly sqlTable?: string;
  readonly sql?: SqlTemplate;
  readonly measures: ReadonlyMap<string, Measure>;
  readonly dimensions: ReadonlyMap<string, Dimension>;
  readonly segments: ReadonlyMap<string, Segment>;
  readonly joins: ReadonlyMap<string, Join>;
  readonly primaryKey?: string;
  readonly accessPolicy?: readonly AccessPolicy[];
  readonly hierarchies?: readonly Hierarchy[];
  /** `pre_aggregations`, by name. */
  readonly preAggregations: ReadonlyMap<string, PreAggregation>;
  /** The cube's own `refresh_key`: caps how long an answer read from the warehouse is reused. */
  readonly refreshKey?: RefreshKey;
}

/** `refresh_key` of a cube or a pre-aggregation. */
export interface RefreshKey {
  /** As written: an interval (`1 hour`) or a cron string. */
  readonly every?: string;
  /** `every` in seconds when it is an interval. */
  readonly everySeconds?: number;
  readonly sql?: SqlTemplate;
  readonly incremental: boolean;
  readonly updateWindow?: string;
  readonly updateWindowSeconds?: number;
}

export type PreAggregationGranularity = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

/** A pre-aggregation as compiled: members as `cube.member` paths, every option checked. */
export interface PreAggregation {
  readonly cube: string;
  readonly name: string;
  readonly type: 'rollup' | 'original_sql' | 'rollup_join';
  readonly measures: readonly string[];
  readonly dimensions: readonly string[];
  readonly segments: readonly string[];
  readonly timeDimension?: string;
  readonly granularity?: PreAggregationGranularity;
  readonly partitionGranularity?: PreAggregationGranularity;
  readonly refreshKey?: RefreshKey;
  readonly buildRangeStart?: SqlTemplate;
  readonly buildRangeEnd?: SqlTemplate;
  readonly indexes: ReadonlyArray<{ readonly name: string; readonly columns: readonly string[] }>;
  readonly allowNonStrictDateRangeMatch: boolean;
  readonly external: boolean;
  /** `rollup_join`: the pre-aggregations it joins, as `cube.name`. */
  readonly rollups?: readonly string[];
}

/** A view member is an alias of a cube member reached along a join path from the view's root cube. */
export interface ViewMember {
  readonly view: string;
  readonly name: string;
  readonly path: string;
  readonly kind: Member['kind'];
  readonly target: Member;
  /** Cubes from the view's root to the member's cube, inclusive. */
  readonly joinPath: readonly string[];
  readonly title: string;
  readonly shortTitle: string;
  readonly description?: string;
  readonly public: boolean;
}

export interface View {
  readonly kind: 'view';
  readonly name: string;
  readonly fileName: string;
  readonly title: string;
  readonly description?: string;
  readonly public: boolean;
  readonly meta?: unknown;
  readonly members: ReadonlyMap<string, ViewMember>;
  readonly accessPolicy?: readonly AccessPolicy[];
  readonly hierarchies?: readonly Hierarchy[];
  readonly folders?: readonly Folder[];
}

export interface DataModel {
  readonly cubes: ReadonlyMap<string, Cube>;
  readonly views: ReadonlyMap<string, View>;
}

/** Who is asking: decides which access policies apply. */
export interface Caller {
  readonly groups: readonly string[];
  readonly userAttributes: Readonly<Record<string, unknown>>;
  readonly securityContext: Readonly<Record<string, unknown>>;
}
