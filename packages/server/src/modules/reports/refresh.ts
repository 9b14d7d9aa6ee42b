import { sql } from 'kysely';
import { ApiError, badRequest } from '../../http/errors.js';
import type { UserPrincipal } from '../../http/principal.js';
import { contextFor, type AuthenticatedContext } from '../../pipeline/context.js';
import { translateSql, type DataTarget } from '../data-api/public.js';
import type { ServiceContext } from '../module.js';
import type { ReportRecord } from './repo.js';
import { parseJsonQuery } from './validate.js';

/** How long a refresh waits out the data API's "Continue wait" answers before giving up. */
export const REFRESH_WAIT_MS = 60_000;
/** The most JSON text a snapshot keeps (1 MB); a larger answer keeps its first rows and says so. */
export const MAX_SNAPSHOT_CHARS = 1_000_000;

const isContinueWait = (answer: unknown) => (answer as { error?: unknown } | null)?.error === 'Continue wait';

/**
 * Runs a report's query through the deployment's data API as the calling user (the user's groups
 * and attribute values feed the model's access policies) and keeps the answer as its snapshot.
 * A query that cannot run any more (a member renamed or hidden from this user, no build, the
 * warehouse refusing it) is not the caller's request failing: the error is kept on the report,
 * the last good snapshot (and who refreshed it, when) stays, and the report is answered with the
 * error (200). Still running
 * after REFRESH_WAIT_MS is a 503: nothing is known yet, so nothing is recorded.
 */
export async function refreshReport(ctx: ServiceContext, user: UserPrincipal, report: ReportRecord, waitMs = REFRESH_WAIT_MS) {
  if (report.json_query === null && report.sql_query === null) {
    throw badRequest('The report has no jsonQuery or sqlQuery to refresh: set one first');
  }
  let answer: unknown;
  try {
    const context = contextFor(user);
    const target = { deploymentId: report.deployment_id };
    const query = report.json_query !== null ? parseJsonQuery(report.json_query) : await translated(ctx, context, target, report.sql_query!);
    answer = await loadWaiting(ctx, context, target, query, waitMs);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'bad_request') throw error;
    await ctx.db
      .updateTable('report')
      .set({ refresh_error: error.message })
      .where('id', '=', report.id)
      .execute();
    return;
  }
  await ctx.db
    .updateTable('report')
    .set({
      snapshot: JSON.stringify(capped(answer, MAX_SNAPSHOT_CHARS)),
      refresh_error: null,
      refreshed_by: user.userId,
      refreshed_at: sql`now()`,
    } as never)
    .where('id', '=', report.id)
    .execute();
}

/** A report's SQL as the Cube query `/cubesql` would run, resolved against what this user may see. */
async function translated(ctx: ServiceContext, context: AuthenticatedContext, target: DataTarget, text: string) {
  const { cubes } = await ctx.services.dataApi.meta(context, target);
  try {
    return (await translateSql(text, cubes)).query;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badRequest(`sqlQuery cannot be translated: ${(error as Error).message}`);
  }
}

async function loadWaiting(ctx: ServiceContext, context: AuthenticatedContext, target: DataTarget, query: unknown, waitMs: number) {
  const dataApi = ctx.services.dataApi;
  const deadline = Date.now() + waitMs;
  const options = Array.isArray(query) ? { queryType: 'multi' as const } : {};
  let answer = await dataApi.load(context, target, query, options);
  while (isContinueWait(answer)) {
    if (Date.now() >= deadline) {
      throw new ApiError(
        'unavailable',
        `The report's query is still running after ${Math.round(waitMs / 1000)} s; refresh again later (its answer is being cached)`,
      );
    }
    answer = await dataApi.load(context, target, query, options);
  }
  return answer;
}

type Rows = { data?: unknown[] };

/**
 * The answer within `max` characters of JSON: when larger, every `data` array (the single shape's,
 * or each of the multi shape's results) keeps its first rows, and `truncated` / `rowCount` say so.
 */
export function capped(answer: unknown, max: number): unknown {
  if (JSON.stringify(answer).length <= max) return answer;
  const a = answer as Rows & { results?: Rows[] };
  const parts: Rows[] = Array.isArray(a.results) ? a.results : [a];
  const rowCount = parts.reduce((n, p) => n + (Array.isArray(p.data) ? p.data.length : 0), 0);
  for (let keep = 0.5; keep > 1e-6; keep /= 2) {
    const cut = (p: Rows) => (Array.isArray(p.data) ? { ...p, data: p.data.slice(0, Math.floor(p.data.length * keep)) } : p);
    const candidate = Array.isArray(a.results)
      ? { ...a, results: a.results.map(cut), truncated: true, rowCount }
      : { ...cut(a), truncated: true, rowCount };
    if (JSON.stringify(candidate).length <= max) return candidate;
  }
  return { truncated: true, rowCount, data: [] };
}
