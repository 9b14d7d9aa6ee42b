import type { Kysely } from 'kysely';
import { badRequest } from '../../http/errors.js';
import type { PolicyAction } from '../../http/permissions.js';
import type { Database } from '../../store/schema.js';
import { folderOfAccount, foldersByIds } from '../folders/public.js';
import { reportOfAccount } from '../reports/public.js';
import { dashboardOfAccount, workbookOfAccount, workbookRow } from '../workbooks/public.js';
import type { ContentItem, ContentType } from './content-access.js';
import type { ResourceRef } from './repo.js';

const levels = (family: string) => (['Read', 'Edit', 'Manage'] as const).map((level) => `${family}${level}` as PolicyAction);

/**
 * The actions a policy on each content type may name. A folder's policy reaches what is in it, so
 * it may name report and workbook actions too; a dashboard is its workbook's, so it takes the
 * workbook actions. Anything else (DeploymentRead on a report) would never be read: refused.
 */
export const ACTIONS_ON: Record<ContentType, readonly PolicyAction[]> = {
  Folder: [...levels('Folder'), ...levels('Report'), ...levels('Workbook')],
  Report: levels('Report'),
  Workbook: levels('Workbook'),
  Dashboard: levels('Workbook'),
};

/** A 400 naming the action and the type when a policy could never mean anything there. */
export function checkFits(type: ContentType, action: PolicyAction | null | undefined): void {
  if (action === null || action === undefined || ACTIONS_ON[type].includes(action)) return;
  throw badRequest(`action ${action} does not apply to a ${type}; a ${type} takes ${ACTIONS_ON[type].join(', ')}`);
}

/** One content item of the account, as access decides on it; undefined when the account has none of that id. */
export async function findContent(
  db: Kysely<Database>,
  accountId: number,
  type: ContentType,
  id: number,
): Promise<ContentItem | undefined> {
  const item = (
    row: { deployment_id: number; created_by: number | null; folder_id: number | null; embed_tenant_id?: number | null } | undefined,
    workbookId?: number,
  ): ContentItem | undefined =>
    row && {
      type,
      id,
      deploymentId: row.deployment_id,
      ownerId: row.created_by,
      folderId: row.folder_id,
      workbookId,
      embedTenantId: row.embed_tenant_id ?? null,
    };
  switch (type) {
    case 'Folder': {
      return item(await folderOfAccount(db, accountId, id));
    }
    case 'Report': {
      // A report in a workbook is reached through it too (content-access.ts).
      const row = await reportOfAccount(db, accountId, id);
      return item(row, row?.workbook_id ?? undefined);
    }
    case 'Workbook': {
      return item(await workbookOfAccount(db, accountId, id));
    }
    case 'Dashboard': {
      // A dashboard shares its workbook's owner, folder and policies (content-access.ts).
      const row = await dashboardOfAccount(db, accountId, id);
      return item(row, row?.workbook_id);
    }
  }
}

/** The reference's Folder shape, which `sourceFolder` of an inherited policy takes. */
export interface SourceFolder {
  id: number;
  name: string;
  parentId: number | null;
  position: number;
  type: 'FOLDER' | 'WORKBOOK';
  deploymentId: number;
  createdBy: number | null;
  updatedBy: number | null;
  createdAt: string;
  updatedAt: string;
}

/** Where an inherited policy comes from: a resource above the item, and the folder (or workbook) to report. */
export interface Source {
  resource: ResourceRef;
  sourceFolder: SourceFolder | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * What an item inherits policies from, nearest first: the workbook of a dashboard, every folder
 * above it, its deployment and the account (Global). A folder does not inherit from itself.
 */
export async function sourcesAbove(db: Kysely<Database>, item: ContentItem, chain: readonly { id: number }[]): Promise<Source[]> {
  const sources: Source[] = [];
  if (item.type === 'Dashboard' && item.workbookId) {
    const workbook = await workbookRow(db, item.workbookId);
    sources.push({
      resource: { type: 'Workbook', id: workbook.id },
      sourceFolder: {
        id: workbook.id,
        name: workbook.name,
        parentId: workbook.folder_id,
        position: 0,
        type: 'WORKBOOK',
        deploymentId: workbook.deployment_id,
        createdBy: workbook.created_by,
        updatedBy: workbook.updated_by,
        createdAt: iso(workbook.created_at),
        updatedAt: iso(workbook.updated_at),
      },
    });
  }
  const above = chain.filter((folder) => !(item.type === 'Folder' && folder.id === item.id));
  const rows = await foldersByIds(
    db,
    above.map((f) => f.id),
  );
  for (const { id } of above) {
    const folder = rows.find((row) => row.id === id);
    if (!folder) continue;
    sources.push({
      resource: { type: 'Folder', id },
      sourceFolder: {
        id,
        name: folder.name,
        parentId: folder.parent_id,
        position: folder.position,
        type: 'FOLDER',
        deploymentId: folder.deployment_id,
        createdBy: folder.created_by,
        updatedBy: folder.updated_by,
        createdAt: iso(folder.created_at),
        updatedAt: iso(folder.updated_at),
      },
    });
  }
  sources.push({ resource: { type: 'Deployment', id: item.deploymentId }, sourceFolder: null });
  sources.push({ resource: { type: 'Global', id: 0 }, sourceFolder: null });
  return sources;
}
