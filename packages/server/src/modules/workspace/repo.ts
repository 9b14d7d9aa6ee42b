import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { WorkspaceOrder, WorkspacePosition } from './cursor.js';
import type { ObjectType } from './schemas.js';
import { moveReport, reportInDeployment, workspaceReports } from '../reports/public.js';
import { moveWorkbook, workbookInDeployment, workspaceWorkbooks } from '../workbooks/public.js';
import { workspaceFolders } from '../folders/public.js';

export type ContentTable = 'folder' | 'workbook' | 'report';

/** One row of the workspace list: the columns of every kind, null where a kind has none. */
export interface WorkspaceRow {
  type: ObjectType;
  rank: 0 | 1;
  id: number;
  name: string;
  deployment_id: number;
  folder_id: number | null;
  position: number | null;
  meta: Record<string, unknown> | null;
  title: string | null;
  description: string | null;
  workbook_id: number | null;
  public_id: string | null;
  created_by: number | null;
  updated_by: number | null;
  created_at: Date | string;
  updated_at: Date | string;
  sort_key: string;
}

export interface WorkspaceFilter {
  deploymentId: number;
  types: readonly ObjectType[];
  /** Only the items this user created (my workspace), or only those others created (shared). */
  owner: { mine: number } | { othersOf: number };
  /** The caller's read access, per table (ContentAccess.readable). */
  readable: Record<ContentTable, Expression<SqlBool>>;
  /** Items directly in this folder; 'top': at the root or in a folder the caller may not open; 'anywhere': a search. */
  place: number | 'top' | 'anywhere';
  search?: string;
  order: WorkspaceOrder;
  after?: WorkspacePosition;
  limit: number;
}

const UTC_MICROS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** The sort key of a row as text: compared byte-wise (collate "C") it orders as the field does. */
function sortKey(field: WorkspaceOrder['field']): RawBuilder<string> {
  if (field === 'name') return sql<string>`lower(${sql.ref('branch.name')})`;
  const column = field === 'created_at' ? 'created_at' : 'updated_at';
  return sql<string>`to_char(${sql.ref(`branch.${column}`)} at time zone 'UTC', ${sql.raw(UTC_MICROS)})`;
}

/** Each kind's rows come from its owner, which applies the caller's read access to its own table. */
function branch(db: Executor, type: ObjectType, filter: Pick<WorkspaceFilter, 'deploymentId' | 'readable'>) {
  if (type === 'FOLDER') return workspaceFolders(db, filter.deploymentId, filter.readable.folder);
  if (type === 'WORKBOOK') return workspaceWorkbooks(db, filter.deploymentId, filter.readable.workbook);
  return workspaceReports(db, filter.deploymentId, filter.readable.report);
}

/** The kinds' rows as one relation, with the sort key of the chosen order. */
function items(db: Executor, types: readonly ObjectType[], filter: Pick<WorkspaceFilter, 'deploymentId' | 'readable' | 'order'>) {
  const union = sql.join(
    types.map((type) => sql`(${branch(db, type, filter)})`),
    sql` union all `,
  );
  return sql`select branch.*, ${sortKey(filter.order.field)} as sort_key from (${union}) as branch`;
}

/** The workspace of a deployment: folders, workbooks and reports as one keyset-paged list. */
export class WorkspaceRepo {
  constructor(private readonly db: Executor) {}

  async list(filter: WorkspaceFilter): Promise<WorkspaceRow[]> {
    if (filter.types.length === 0) return [];
    const where: RawBuilder<unknown>[] = [
      'mine' in filter.owner
        ? sql`items.created_by = ${filter.owner.mine}`
        : sql`items.created_by is distinct from ${filter.owner.othersOf}`,
    ];
    if (typeof filter.place === 'number') where.push(sql`items.folder_id = ${filter.place}`);
    if (filter.place === 'top') {
      where.push(
        sql`(items.folder_id is null or not exists (select 1 from (${branch(this.db, 'FOLDER', filter)}) as opened where opened.id = items.folder_id))`,
      );
    }
    if (filter.search) where.push(sql`strpos(lower(items.name), lower(${filter.search})) > 0`);
    const dir = sql.raw(filter.order.direction === 'ASC' ? 'asc' : 'desc');
    const after = filter.after;
    if (after) {
      const cmp = sql.raw(filter.order.direction === 'ASC' ? '>' : '<');
      where.push(sql`(items.rank > ${after.rank} or (items.rank = ${after.rank} and
        (items.sort_key collate "C", items.type collate "C", items.id) ${cmp}
        (cast(${after.key} as text) collate "C", cast(${after.type} as text) collate "C", cast(${after.id} as integer))))`);
    }
    const { rows } = await sql<WorkspaceRow>`
      select * from (${items(this.db, filter.types, filter)}) as items
      where ${sql.join(where, sql` and `)}
      order by items.rank, items.sort_key collate "C" ${dir}, items.type collate "C" ${dir}, items.id ${dir}
      limit ${filter.limit}
    `.execute(this.db);
    return rows;
  }

  findItem(type: 'WORKBOOK' | 'REPORT', deploymentId: number, id: number) {
    return type === 'WORKBOOK' ? workbookInDeployment(this.db, deploymentId, id) : reportInDeployment(this.db, deploymentId, id);
  }

  /** Puts a workbook or report into a folder (null: the root) through its owner; the target is checked by the caller. */
  moveItem(type: 'WORKBOOK' | 'REPORT', deploymentId: number, id: number, folderId: number | null, userId: number): Promise<void> {
    const move = type === 'WORKBOOK' ? moveWorkbook : moveReport;
    return move(this.db, deploymentId, id, folderId, userId);
  }

  /** One item as the list shows it. */
  async item(type: ObjectType, filter: Pick<WorkspaceFilter, 'deploymentId'>, id: number): Promise<WorkspaceRow | undefined> {
    const all = sql<boolean>`true`;
    const { rows } = await sql<WorkspaceRow>`
      select * from (${items(this.db, [type], {
        deploymentId: filter.deploymentId,
        readable: { folder: all, workbook: all, report: all },
        order: { list: 'workspace', field: 'name', direction: 'ASC' },
      })}) as items where items.id = ${id}
    `.execute(this.db);
    return rows[0];
  }
}
