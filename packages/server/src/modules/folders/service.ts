import type { Static } from '@sinclair/typebox';
import { badRequest, notFound } from '../../http/errors.js';
import { decodeCursor, pageSize, toPage, type ListOrder } from '../../http/pagination.js';
import { isUniqueViolation } from '../../store/executor.js';
import type { FolderRow } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import type { ServiceContext } from '../module.js';
import { FOLDER_ORDER, FolderRepo } from './repo.js';
import {
  checkName,
  folderItem,
  isForeignKeyViolation,
  MAX_DEPTH,
  nameTaken,
  notEmpty,
  parentOf,
  toFolderView,
  tooDeep,
  type UserPrincipal,
} from './rules.js';
import type { CreateFolderInput, FoldersQuery, FolderView, UpdateFolderInput } from './schemas.js';

export { isForeignKeyViolation, type UserPrincipal } from './rules.js';

/**
 * Folders of a deployment's workspace. Every call checks content access (resource-policies'
 * ContentAccess): reading needs Read on the folder, changing it Edit, deleting it Manage; creating
 * or moving one into a folder needs Edit on that folder, at the root the deployment's DeploymentRead
 * (the route's own requirement). Names are unique among siblings, ignoring case (the store's index).
 */
export class FolderService {
  private readonly repo: FolderRepo;

  constructor(private readonly ctx: ServiceContext) {
    this.repo = new FolderRepo(ctx.db);
  }

  private get access() {
    return this.ctx.services.contentAccess;
  }

  async list(principal: UserPrincipal, deploymentId: number, query: Static<typeof FoldersQuery>) {
    await this.assertDeployment(principal.accountId, deploymentId);
    const parentId = parentOf(query.parentId);
    if (parentId !== null) await this.access.demand(principal, folderItem(await this.get(deploymentId, parentId)), 'Read');
    const readable = this.access.readable('folder', await this.access.readScope(principal, deploymentId, 'Folder'));
    const after = decodeCursor(FOLDER_ORDER as ListOrder<never>, query.after);
    const rows = await this.repo.list(deploymentId, parentId, readable, after, pageSize(query) + 1);
    const page = toPage(FOLDER_ORDER, rows, query, toFolderView);
    const count = await this.repo.count(deploymentId, parentId, readable);
    return { items: page.items, data: page.items, count, pageInfo: page.pageInfo };
  }

  async create(principal: UserPrincipal, deploymentId: number, input: Static<typeof CreateFolderInput>): Promise<FolderView> {
    await this.assertDeployment(principal.accountId, deploymentId);
    const name = checkName(input.name);
    const parentId = input.parentId ?? null;
    if (parentId !== null) {
      await this.access.demand(principal, folderItem(await this.get(deploymentId, parentId, 'parentId')), 'Edit');
      const depth = (await this.access.folderChain(parentId)).length + 1;
      if (depth > MAX_DEPTH) throw tooDeep(depth);
    }
    const position = input.position ?? (await this.repo.nextPosition(deploymentId, parentId));
    const row = await this.named(name, parentId, () =>
      this.repo.insert({
        account_id: principal.accountId,
        deployment_id: deploymentId,
        parent_id: parentId,
        name,
        position,
        created_by: principal.userId,
      }),
    );
    return toFolderView(row);
  }

  async update(principal: UserPrincipal, deploymentId: number, id: number, input: Static<typeof UpdateFolderInput>): Promise<FolderView> {
    await this.assertDeployment(principal.accountId, deploymentId);
    const folder = await this.get(deploymentId, id);
    await this.access.demand(principal, folderItem(folder), 'Edit');
    const name = input.name === undefined || input.name === null ? undefined : checkName(input.name);
    const position = input.position ?? undefined;
    return transaction(this.ctx.db, async () => {
      const parentId = input.parentId === undefined ? folder.parent_id : await this.checkMove(principal, folder, input.parentId);
      const patch = { name, position, parent_id: parentId, updated_by: principal.userId };
      return toFolderView(await this.named(name ?? folder.name, parentId, () => this.repo.update(id, patch)));
    });
  }

  /** Moves a folder (moveWorkspaceObject): Edit on it, and on the target as checkMove says. */
  async move(principal: UserPrincipal, deploymentId: number, id: number, targetId: number | null): Promise<FolderView> {
    return this.update(principal, deploymentId, id, { parentId: targetId });
  }

  async remove(principal: UserPrincipal, deploymentId: number, id: number, deleteContents: boolean): Promise<void> {
    await this.assertDeployment(principal.accountId, deploymentId);
    await this.access.demand(principal, folderItem(await this.get(deploymentId, id)), 'Manage');
    await transaction(this.ctx.db, async () => {
      // Locked, nothing can be put in it between the count and the delete (the foreign key waits).
      if (!(await this.repo.lockFolder(id))) throw notFound(`Folder ${id} not found`);
      const held = await this.repo.contents(id);
      if (held.folders + held.reports + held.workbooks > 0 && !deleteContents) throw notEmpty(id, held);
      await this.repo.delete(id);
    });
  }

  /** The folder and the folders above it, from the root down (a breadcrumb). */
  async ancestors(principal: UserPrincipal, deploymentId: number, id: number): Promise<FolderView[]> {
    await this.assertDeployment(principal.accountId, deploymentId);
    await this.access.demand(principal, folderItem(await this.get(deploymentId, id)), 'Read');
    const chain = await this.access.folderChain(id);
    const rows = await Promise.all(chain.map((f) => this.repo.find(deploymentId, f.id)));
    return rows
      .filter((row): row is FolderRow => row !== undefined)
      .reverse()
      .map(toFolderView);
  }

  /** A folder of the deployment, or a 404 (the same for another deployment's folder). */
  async get(deploymentId: number, id: number, field?: string): Promise<FolderRow> {
    const row = await this.repo.find(deploymentId, id);
    if (!row) throw notFound(`${field ? `${field}: ` : ''}Folder ${id} not found`);
    return row;
  }

  /** Demands an access level on a folder of the deployment (404 when missing or unreadable); the workspace uses it for move targets. */
  async demandOn(principal: UserPrincipal, deploymentId: number, id: number, level: 'Read' | 'Edit' | 'Manage', field?: string) {
    await this.access.demand(principal, folderItem(await this.get(deploymentId, id, field)), level);
  }

  /** Checks that the deployment is the account's: another account's is missing, as any other id. */
  async assertDeployment(accountId: number, deploymentId: number): Promise<void> {
    if (!(await this.ctx.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
  }

  /**
   * The parent a folder moves to, checked under the tree's lock: Edit on the target folder, never
   * the folder itself or one inside it, and no deeper than MAX_DEPTH.
   */
  private async checkMove(principal: UserPrincipal, folder: FolderRow, targetId: number | null): Promise<number | null> {
    // Serialises changes to the deployment's folder tree: two moves checked at once could each find no cycle and together make one.
    await this.ctx.services.deployments.lock(principal.accountId, folder.deployment_id, 'no key update');
    if (targetId === null) return null;
    const target = await this.get(folder.deployment_id, targetId, 'parentId');
    await this.access.demand(principal, folderItem(target), 'Edit');
    const chain = await this.access.folderChain(targetId);
    if (chain.some((f) => f.id === folder.id)) {
      throw badRequest(
        targetId === folder.id
          ? `Folder ${folder.id} cannot move into itself`
          : `Folder ${folder.id} cannot move into folder ${targetId}: folder ${targetId} is inside folder ${folder.id}`,
      );
    }
    const depth = chain.length + 1 + (await this.repo.height(folder.id));
    if (depth > MAX_DEPTH) throw tooDeep(depth);
    return targetId;
  }

  /** Runs a write that may clash with a sibling's name, turning the clash into a 409 naming it. */
  private async named(name: string, parentId: number | null, write: () => Promise<FolderRow>): Promise<FolderRow> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(name, parentId);
      // The parent was deleted between the check and the write: as missing as if it never was.
      if (isForeignKeyViolation(error) && parentId !== null) throw notFound(`parentId: Folder ${parentId} not found`);
      throw error;
    }
  }
}
