import type { Executor } from '../../store/executor.js';

/** What other modules may use of workbooks beyond the service: how many a folder holds, for the folder's deletion. */
export async function workbooksInFolder(db: Executor, folderId: number): Promise<number> {
  const row = await db
    .selectFrom('workbook')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('folder_id', '=', folderId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export {
  dashboardOfAccount,
  moveWorkbook,
  workbookById,
  workbookIdsWhere,
  workbookInDeployment,
  workbookOfAccount,
  workbookRow,
} from './content.js';
