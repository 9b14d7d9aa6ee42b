import { sql } from 'kysely';
import { badRequest } from '../../http/errors.js';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, type ListOrder, type PageQuery, toPage } from '../../http/pagination.js';
import type { ContentPrincipal } from '../../http/principal.js';
import { afterPosition, timestampKey } from '../../store/keyset.js';
import type { ServiceContext } from '../module.js';
import { foldersByName } from '../folders/public.js';
import { selectReports, toView, type ReportRecord } from './repo.js';
import type { ReportsQuery } from './schemas.js';

type Sorted = ReportRecord & { sort_key: string };

/** The column each `sortBy` orders by. Plinth records no views, so `lastViewedAt` orders as `updatedAt`. */
const COLUMNS = { createdAt: 'report.created_at', updatedAt: 'report.updated_at', lastViewedAt: 'report.updated_at' } as const;

/** One ordering of the reports list; its name goes into every cursor, so a cursor of another ordering is refused. */
function orderOf(query: ReportsQuery): ListOrder<Sorted> {
  const sortBy = query.sortBy ?? 'createdAt';
  const direction = query.sortDirection === 'ASC' ? 'asc' : 'desc';
  return { list: 'reports', sort: sortBy, kind: 'timestamp', direction, keyOf: (row) => row.sort_key };
}

/**
 * The reports of a deployment the caller may read, in the requested order: cursor pages
 * (`first`/`after`, stable under concurrent writes) or numbered pages (`limit`/`page`, as the
 * reference pages), never both at once.
 */
export async function listReports(ctx: ServiceContext, user: ContentPrincipal, deploymentId: number, query: ReportsQuery) {
  const numbered = query.limit !== undefined || query.page !== undefined;
  if (numbered && (query.first !== undefined || query.after !== undefined)) {
    throw badRequest('Page either with limit and page, or with first and after, not both');
  }
  const access = ctx.services.contentAccess;
  const scope = await access.readScope(user, deploymentId, 'Report');
  const order = orderOf(query);
  const column = COLUMNS[query.sortBy ?? 'createdAt'];
  let select = selectReports(ctx.db)
    .select(timestampKey(column).as('sort_key'))
    .where('report.deployment_id', '=', deploymentId)
    .where('report.account_id', '=', user.accountId)
    .where(access.readable('report', scope));
  if (query.workbookId !== undefined) select = select.where('report.workbook_id', '=', query.workbookId);

  if (numbered) {
    const size = query.limit ?? DEFAULT_PAGE_SIZE;
    const page = query.page ?? 1;
    const rows = (await select
      .orderBy(sql.ref(column), order.direction)
      .orderBy('report.id', order.direction)
      .offset((page - 1) * size)
      .limit(size + 1)
      .execute()) as Sorted[];
    const pageRows = rows.slice(0, size);
    return {
      data: pageRows.map((row) => toView(row)),
      pageInfo: {
        hasNextPage: rows.length > size,
        hasPreviousPage: page > 1,
        startCursor: pageRows[0] ? encodeCursor(order, pageRows[0]) : null,
        endCursor: pageRows.length ? encodeCursor(order, pageRows[pageRows.length - 1]!) : null,
      },
    };
  }
  const paging: PageQuery = { first: query.first, after: query.after };
  const after = decodeCursor(order as ListOrder<never>, query.after);
  const rows = (await select
    .$call(afterPosition(order as ListOrder<never>, { key: column, id: 'report.id' }, after, (query.first ?? DEFAULT_PAGE_SIZE) + 1))
    .execute()) as Sorted[];
  const { items, pageInfo } = toPage(order, rows, paging, (row) => toView(row));
  return { data: items, pageInfo };
}

/**
 * The report folders: the deployment's folders that directly hold a report the caller may read,
 * each with how many it may read there, by name. A folder the caller cannot otherwise read is
 * still listed when a report in it is shared with the caller, so the report can be found.
 */
export async function reportFolders(ctx: ServiceContext, user: ContentPrincipal, deploymentId: number) {
  const access = ctx.services.contentAccess;
  const scope = await access.readScope(user, deploymentId, 'Report');
  const counts = await ctx.db
    .selectFrom('report')
    .select('report.folder_id')
    .select(sql<number>`cast(count(report.id) as integer)`.as('reports_count'))
    .where('report.deployment_id', '=', deploymentId)
    .where('report.account_id', '=', user.accountId)
    .where('report.folder_id', 'is not', null)
    .where(access.readable('report', scope))
    .groupBy('report.folder_id')
    .execute();
  const counted = new Map(counts.map((row) => [row.folder_id!, Number(row.reports_count)]));
  const folders = await foldersByName(ctx.db, [...counted.keys()]);
  const rows = folders
    .filter((folder) => folder.deployment_id === deploymentId && folder.account_id === user.accountId)
    .map((folder) => ({ ...folder, reports_count: counted.get(folder.id)! }));
  return {
    data: rows.map((row) => ({ id: row.id, name: row.name, createdBy: row.created_by, reportsCount: Number(row.reports_count) })),
  };
}
