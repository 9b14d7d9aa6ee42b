import type { Static } from '@sinclair/typebox';
import { toIso } from '../../http/common-schemas.js';
import { notFound } from '../../http/errors.js';
import { pageSize, type Page } from '../../http/pagination.js';
import { transaction } from '../../store/transaction.js';
import type { ServiceContext } from '../module.js';
import { isForeignKeyViolation, type UserPrincipal } from '../folders/service.js';
import { decodeWorkspaceCursor, encodeWorkspaceCursor, type WorkspaceOrder } from './cursor.js';
import { WorkspaceRepo, type WorkspaceRow } from './repo.js';
import { OBJECT_TYPES, type MoveWorkspaceObjectInput, type ObjectType, type WorkspaceItemView, type WorkspaceQuery } from './schemas.js';

type Which = 'workspace' | 'shared-workspace';
const CONTENT_TYPE = { FOLDER: 'Folder', WORKBOOK: 'Workbook', REPORT: 'Report' } as const;

/**
 * The workspace of a deployment as a user sees it: "my workspace" lists the folders, workbooks and
 * reports the caller created; the shared workspace lists those others created that the caller may
 * read (a policy on them or on a folder above them, or an admin's reach). Both list one level (the
 * top, or one folder) unless searching, folders first, then by the chosen field.
 */
export class WorkspaceService {
  private readonly repo: WorkspaceRepo;

  constructor(private readonly ctx: ServiceContext) {
    this.repo = new WorkspaceRepo(ctx.db);
  }

  private get access() {
    return this.ctx.services.contentAccess;
  }

  private get folders() {
    return this.ctx.services.folders;
  }

  async list(principal: UserPrincipal, deploymentId: number, which: Which, query: WorkspaceQuery): Promise<Page<WorkspaceItemView>> {
    await this.folders.assertDeployment(principal.accountId, deploymentId);
    const folderId = query.folderId === undefined || query.folderId === '' || query.folderId === 'null' ? null : query.folderId;
    if (folderId !== null) await this.folders.demandOn(principal, deploymentId, folderId, 'Read');
    const order: WorkspaceOrder = { list: which, field: query.orderByField ?? 'name', direction: query.orderByDirection ?? 'ASC' };
    const after = decodeWorkspaceCursor(order, query.after);
    const [folder, workbook, report] = await Promise.all(
      (['Folder', 'Workbook', 'Report'] as const).map(async (type) => this.access.readScope(principal, deploymentId, type)),
    );
    const size = pageSize(query);
    const search = query.search?.trim() || undefined;
    const rows = await this.repo.list({
      deploymentId,
      types: query.types?.length ? [...new Set(query.types)] : OBJECT_TYPES,
      owner: which === 'workspace' ? { mine: principal.userId } : { othersOf: principal.userId },
      readable: {
        folder: this.access.readable('folder', folder!),
        workbook: this.access.readable('workbook', workbook!),
        report: this.access.readable('report', report!),
      },
      place: folderId ?? (search ? 'anywhere' : 'top'),
      search,
      order,
      after,
      limit: size + 1,
    });
    const pageRows = rows.slice(0, size);
    const cursor = (row: WorkspaceRow | undefined) =>
      row ? encodeWorkspaceCursor(order, { rank: row.rank, key: row.sort_key, type: row.type, id: row.id }) : null;
    return {
      items: pageRows.map(toItemView),
      pageInfo: {
        hasNextPage: rows.length > size,
        hasPreviousPage: after !== undefined,
        startCursor: cursor(pageRows[0]),
        endCursor: cursor(pageRows[pageRows.length - 1]),
      },
    };
  }

  /**
   * Moves a folder, workbook or report into a folder (null: the root). Needs Edit on the item and
   * FolderEdit on the target; a folder moves as updateFolder moves it (never into itself or below).
   */
  async move(principal: UserPrincipal, deploymentId: number, input: Static<typeof MoveWorkspaceObjectInput>): Promise<WorkspaceItemView> {
    await this.folders.assertDeployment(principal.accountId, deploymentId);
    const target = input.folderId ?? null;
    if (input.type === 'FOLDER') {
      await this.folders.move(principal, deploymentId, input.id, target);
      return this.itemView('FOLDER', deploymentId, input.id);
    }
    const type = input.type;
    const label = CONTENT_TYPE[type];
    const row = await this.repo.findItem(type, deploymentId, input.id);
    if (!row) throw notFound(`${label} ${input.id} not found`);
    const item = {
      type: label,
      id: row.id,
      deploymentId,
      ownerId: row.created_by,
      folderId: row.folder_id,
      embedTenantId: row.embed_tenant_id,
    };
    await this.access.demand(principal, item, 'Edit');
    await transaction(this.ctx.db, async () => {
      // The target folder stays while the item moves in (its foreign key would refuse a deleted one anyway).
      if (target !== null) await this.folders.demandOn(principal, deploymentId, target, 'Edit', 'folderId');
      try {
        await this.repo.moveItem(type, deploymentId, row.id, target, principal.userId);
      } catch (error) {
        // The target was deleted between the check and the write.
        if (isForeignKeyViolation(error)) throw notFound(`folderId: Folder ${target} not found`);
        throw error;
      }
    });
    return this.itemView(type, deploymentId, input.id);
  }

  private async itemView(type: ObjectType, deploymentId: number, id: number): Promise<WorkspaceItemView> {
    const row = await this.repo.item(type, { deploymentId }, id);
    if (!row) throw notFound(`${CONTENT_TYPE[type]} ${id} not found`);
    return toItemView(row);
  }
}

export function toItemView(row: WorkspaceRow): WorkspaceItemView {
  const common = {
    id: row.id,
    name: row.name,
    deploymentId: row.deployment_id,
    folderId: row.folder_id,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
  switch (row.type) {
    case 'FOLDER':
      return { type: 'FOLDER', ...common, parentId: row.folder_id, position: row.position ?? 0 };
    case 'WORKBOOK':
      return { type: 'WORKBOOK', ...common, meta: row.meta ?? {} };
    case 'REPORT':
      return {
        type: 'REPORT',
        ...common,
        title: row.title,
        description: row.description,
        workbookId: row.workbook_id,
        publicId: row.public_id ?? '',
      };
  }
}
