import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { WorkspaceOrder, WorkspacePosition } from './cursor.js';
import type { ObjectType } from './schemas.js';
import { moveReport, reportInDeployment } from '../reports/public.js';
import { moveWorkbook, workbookInDeployment } from '../workbooks/public.js';

export type ContentTable = 'folder' | 'workbook' | 'report';
const TABLE: Record<ObjectType, ContentTable> = { FOLDER: 'folder', WORKBOOK: 'workbook', REPORT: 'report' };

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
function sortKey(table: ContentTable, field: WorkspaceOrder['field']): RawBuilder<string> {
  if (field === 'name') return sql<string>`lower(${sql.ref(`${table}.name`)})`;
  const column = field === 'created_at' ? 'created_at' : 'updated_at';
  return sql<string>`to_char(${sql.ref(`${table}.${column}`)} at time zone 'UTC', ${sql.raw(UTC_MICROS)})`;
}

function branch(type: ObjectType, filter: WorkspaceFilter) {
  const table = TABLE[type];
  const col = (name: string) => sql.ref(`${table}.${name}`);
  const pick = (name: string, when: ObjectType, cast: string) => (type === when ? col(name) : sql.raw(`null::${cast}`));
  const owner =
    'mine' in filter.owner
      ? sql`${col('created_by')} = ${filter.owner.mine}`
      : sql`${col('created_by')} is distinct from ${filter.owner.othersOf}`;
  return sql`
    select cast(${type} as text) as type, ${sql.raw(type === 'FOLDER' ? '0' : '1')} as rank, ${col('id')} as id, ${col('name')} as name,
      ${col('deployment_id')} as deployment_id, ${col(type === 'FOLDER' ? 'parent_id' : 'folder_id')} as folder_id,
      ${pick('position', 'FOLDER', 'integer')} as position, ${pick('meta', 'WORKBOOK', 'jsonb')} as meta,
      ${pick('title', 'REPORT', 'text')} as title, ${pick('description', 'REPORT', 'text')} as description,
      ${pick('workbook_id', 'REPORT', 'integer')} as workbook_id, ${pick('public_id', 'REPORT', 'text')} as public_id,
      ${col('created_by')} as created_by, ${col('updated_by')} as updated_by, ${col('created_at')} as created_at,
      ${col('updated_at')} as updated_at, ${sortKey(table, filter.order.field)} as sort_key
    from ${sql.table(table)}
    where ${col('deployment_id')} = ${filter.deploymentId} and ${owner} and ${filter.readable[table]}
  `;
}

/** The workspace of a deployment: folders, workbooks and reports as one keyset-paged list. */
export class WorkspaceRepo {
  constructor(private readonly db: Executor) {}

  async list(filter: WorkspaceFilter): Promise<WorkspaceRow[]> {
    if (filter.types.length === 0) return [];
    const union = sql.join(
      filter.types.map((type) => branch(type, filter)),
      sql` union all `,
    );
    const where: RawBuilder<unknown>[] = [sql`true`];
    if (typeof filter.place === 'number') where.push(sql`items.folder_id = ${filter.place}`);
    if (filter.place === 'top') {
      where.push(
        sql`(items.folder_id is null or not exists (select 1 from folder where folder.id = items.folder_id and ${filter.readable.folder}))`,
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
      select * from (${union}) as items
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
  moveItem(type: 'WORKBOOK' | 'REPORT', id: number, folderId: number | null, userId: number): Promise<void> {
    return type === 'WORKBOOK' ? moveWorkbook(this.db, id, folderId, userId) : moveReport(this.db, id, folderId, userId);
  }

  /** One item as the list shows it. */
  async item(type: ObjectType, filter: Pick<WorkspaceFilter, 'deploymentId'>, id: number): Promise<WorkspaceRow | undefined> {
    const all = sql<boolean>`true`;
    const { rows } = await sql<WorkspaceRow>`
      select * from (${branch(type, {
        deploymentId: filter.deploymentId,
        types: [type],
        owner: { othersOf: -1 },
        readable: { folder: all, workbook: all, report: all },
        place: 'anywhere',
        order: { list: 'workspace', field: 'name', direction: 'ASC' },
        limit: 1,
      })}) as items where items.id = ${id}
    `.execute(this.db);
    return rows[0];
  }
}
