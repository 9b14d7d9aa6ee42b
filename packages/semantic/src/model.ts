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

export const DIMENSION_TYPES = ['string', 'number', 'time', 'boolean'] as const;
export type DimensionType = (typeof DIMENSION_TYPES)[number];

export type Relationship = 'many_to_one' | 'one_to_many' | 'one_to_one';

/** A reference inside `{...}` in model SQL, resolved against the model at compile time. */
export type TemplateRef = { kind: 'cube'; cube: string } | { kind: 'member'; cube: string; member: string };

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

export interface Measure extends MemberBase {
  readonly kind: 'measure';
  readonly type: MeasureType;
  readonly sql?: SqlTemplate;
  readonly filters: readonly SqlTemplate[];
  readonly format?: string;
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

export interface AccessPolicy {
  /** Groups the policy applies to; `*` means everyone. */
  readonly groups: readonly string[];
  /** Member names (without cube prefix) the policy exposes; undefined = all. */
  readonly includes: '*' | readonly string[];
  readonly excludes: readonly string[];
  /** undefined = every row. */
  readonly rowFilters?: readonly PolicyFilter[];
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
