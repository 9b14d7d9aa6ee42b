/**
 * What a statement may ask of a model's catalog. The catalog is a PGlite running on the server's
 * own thread and shared by every session that sees the same model, so one statement that runs
 * long (a large generate_series, a recursive CTE that never ends, pg_sleep) would stall every
 * connection and request of the process. PostgreSQL's statement_timeout does not fire in PGlite,
 * so such statements are refused from their plan before they run. Catalog queries of BI tools
 * read tables of some thousands of rows and plan far below these limits.
 */

/** Highest estimated cost of a catalog statement (PostgreSQL's units; a count over ten million generated rows is 125,000). */
export const CATALOG_MAX_COST = 100_000;
/** Most rows a catalog statement may be planned to return or read at any step. */
export const CATALOG_MAX_ROWS = 100_000;

/** SQL run once on a new catalog: functions whose whole purpose is to wait, denied to the SQL users. */
export const CATALOG_REVOKES = ['pg_sleep(double precision)', 'pg_sleep_for(interval)', 'pg_sleep_until(timestamp with time zone)']
  .map((fn) => `revoke execute on function pg_catalog.${fn} from public;`)
  .join('\n');

interface PlanNode {
  'Node Type'?: string;
  'Total Cost'?: number;
  'Plan Rows'?: number;
  Plans?: PlanNode[];
}

/** Why the catalog will not run a statement of this plan (EXPLAIN's JSON root), or undefined when it may. */
export function catalogPlanProblem(root: unknown): string | undefined {
  const top = (Array.isArray(root) ? root[0] : root) as { Plan?: PlanNode } | undefined;
  const plan = top?.Plan;
  if (!plan) return undefined;
  if ((plan['Total Cost'] ?? 0) > CATALOG_MAX_COST) {
    return `this catalog query is too costly to answer (estimated cost ${Math.round(plan['Total Cost']!)}, at most ${CATALOG_MAX_COST}): the SQL API's catalog answers queries over its own tables`;
  }
  const nodes: PlanNode[] = [plan];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    if (node['Node Type'] === 'Recursive Union') return 'WITH RECURSIVE is not supported in catalog queries';
    if ((node['Plan Rows'] ?? 0) > CATALOG_MAX_ROWS) {
      return `this catalog query reads too many rows (estimated ${node['Plan Rows']}, at most ${CATALOG_MAX_ROWS})`;
    }
    nodes.push(...(node.Plans ?? []));
  }
  return undefined;
}
