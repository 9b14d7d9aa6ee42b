import { createHash, randomBytes } from 'node:crypto';
import { demand } from '../../http/authorize.js';
import { toIso } from '../../http/common-schemas.js';
import { ApiError, badRequest, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { ModelBranchRow, ModelUploadRow, TreeEntries } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { checkContent, checkPath, checkText, credentialKey, DEV_BRANCH_PREFIX, MAX_UPLOAD_FILES } from '../data-model/public.js';
import type { ServiceContext } from '../module.js';
import { MAX_OPEN_UPLOADS, UPLOAD_SESSION_TTL_MS } from './public.js';
import { changesBetween, filesToSend } from './tree-diff.js';

export interface StartUploadInput {
  branch?: string;
  message?: string;
  keepMissing?: boolean;
  files: TreeEntries;
}

const sha256 = (content: string) => createHash('sha256').update(content, 'utf8').digest('hex');

/**
 * Upload sessions of `plinth deploy`: start records the manifest against the branch head, only
 * the files the server lacks travel, and finish commits the whole tree in one commit with one
 * build. Nothing touches the branch before finish, so an abandoned upload leaves it as it was.
 */
export class ModelUploadService {
  constructor(readonly ctx: ServiceContext) {}

  private get dataModel() {
    return this.ctx.services.dataModel;
  }

  /** Concurrent starts may pass this together and go a few over: a bound on the store's growth, not a quota to the unit. */
  private async demandRoomForAnother(accountId: number): Promise<void> {
    const { open } = await this.ctx.db
      .selectFrom('model_upload')
      .select((eb) => eb.fn.countAll<string>().as('open'))
      .where('account_id', '=', accountId)
      .where('state', '=', 'open')
      .where('expires_at', '>', new Date())
      .executeTakeFirstOrThrow();
    if (Number(open) < MAX_OPEN_UPLOADS) return;
    throw new ApiError(
      'limit_exceeded',
      `The account has ${MAX_OPEN_UPLOADS} open upload sessions, the most it may hold; finish or abort one, or wait until they expire (1 hour after they started)`,
    );
  }

  async start(principal: Principal, deploymentId: number, input: StartUploadInput) {
    const paths = Object.keys(input.files);
    if (paths.length > MAX_UPLOAD_FILES) {
      throw new ApiError('limit_exceeded', `An upload session may name at most ${MAX_UPLOAD_FILES} files; this one names ${paths.length}`);
    }
    for (const path of paths) checkPath(path);
    if (input.message !== undefined) checkText(input.message, 'message');
    const branch = await this.dataModel.target(principal, deploymentId, input.branch);
    demandWriteOn(principal, branch);
    const base = await this.dataModel.treeAt(principal.accountId, branch.head_commit_id);
    const upload = await filesToSend(this.dataModel, principal.accountId, base, input.files);
    await this.demandRoomForAnother(principal.accountId);
    const row = await this.ctx.db
      .insertInto('model_upload')
      .values({
        id: `upl_${randomBytes(12).toString('hex')}`,
        account_id: principal.accountId,
        deployment_id: deploymentId,
        branch_name: branch.name,
        base_commit_id: branch.head_commit_id,
        manifest: JSON.stringify(input.files),
        keep_missing: input.keepMissing ?? false,
        message: input.message ?? null,
        credential_key: credentialKey(principal),
        expires_at: new Date(Date.now() + UPLOAD_SESSION_TTL_MS),
      })
      .returning(['id', 'expires_at'])
      .executeTakeFirstOrThrow();
    return {
      uploadId: row.id,
      branchName: branch.name,
      baseCommitId: Number(branch.head_commit_id),
      expiresAt: toIso(row.expires_at),
      upload,
      unchanged: paths.filter((path) => base[path] === input.files[path]).length,
    };
  }

  async uploadFile(principal: Principal, deploymentId: number, uploadId: string, input: { path: string; content: string }) {
    const session = await this.open(principal, deploymentId, uploadId);
    const expected = session.manifest[input.path];
    if (expected === undefined) throw badRequest(`Path ${JSON.stringify(input.path)} is not in the manifest of upload ${uploadId}`);
    const size = checkContent(input.path, input.content);
    const hash = sha256(input.content);
    if (hash !== expected) {
      throw badRequest(`Content of ${input.path} does not match its hash in the manifest (expected ${expected}, got ${hash})`);
    }
    await this.dataModel.storeBlobs(principal.accountId, [input.content]);
    await this.ctx.db
      .insertInto('model_upload_file')
      .values({ upload_id: uploadId, path: input.path, hash })
      .onConflict((oc) => oc.columns(['upload_id', 'path']).doUpdateSet({ hash }))
      .execute();
    return { path: input.path, hash, size };
  }

  async finish(principal: Principal, deploymentId: number, uploadId: string) {
    const session = await this.open(principal, deploymentId, uploadId);
    const branch = await this.dataModel.branch(principal.accountId, deploymentId, session.branch_name);
    demandWriteOn(principal, branch);
    const base = await this.dataModel.treeAt(principal.accountId, Number(session.base_commit_id));
    const missing = await filesToSend(this.dataModel, principal.accountId, base, session.manifest);
    if (missing.length > 0) throw badRequest(`Files never uploaded to upload ${uploadId}: ${missing.join(', ')}`);
    const entries = session.keep_missing ? { ...base, ...session.manifest } : session.manifest;
    const count = Object.keys(entries).length;
    return transaction(this.ctx.db, async (db) => {
      // Claimed first, so two concurrent finishes commit once; a conflict below rolls the claim back.
      const claimed = await db
        .updateTable('model_upload')
        .set({ state: 'finished' })
        .where('id', '=', uploadId)
        .where('state', '=', 'open')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw gone(uploadId);
      const result = await this.dataModel.commitTree(principal, branch, {
        entries,
        baseCommitId: Number(session.base_commit_id),
        message: session.message ?? `Deploy ${count} file${count === 1 ? '' : 's'} with plinth deploy`,
        build: 'deploy',
        db,
      });
      return { uploadId, branchName: branch.name, ...result, ...changesBetween(base, entries) };
    });
  }

  async abort(principal: Principal, deploymentId: number, uploadId: string) {
    await this.open(principal, deploymentId, uploadId);
    await this.ctx.db
      .updateTable('model_upload')
      .set({ state: 'aborted' })
      .where('id', '=', uploadId)
      .where('state', '=', 'open')
      .execute();
    return { uploadId, state: 'aborted' as const };
  }

  /** An open, unexpired session of the deployment; anything else reads as missing. */
  private async open(principal: Principal, deploymentId: number, uploadId: string): Promise<ModelUploadRow> {
    const row = await this.ctx.db
      .selectFrom('model_upload')
      .selectAll()
      .where('id', '=', uploadId)
      .where('account_id', '=', principal.accountId)
      .where('deployment_id', '=', deploymentId)
      .where('state', '=', 'open')
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    // The id (96 random bits) is the capability; a dev branch's session stays its owner's, as the branch does.
    if (!row || (row.branch_name.startsWith(DEV_BRANCH_PREFIX) && row.credential_key !== credentialKey(principal))) throw gone(uploadId);
    return row;
  }
}

const gone = (uploadId: string) => notFound(`Upload session ${uploadId} not found or expired`);

/**
 * The route lets SchemaUpdateDevBranches through, enough for the caller's own dev branch (which
 * `target` only resolves for its owner); a shared branch needs SchemaUpdate, and the deploy branch
 * DeploymentUpdate: a deploy there changes production, as a merge into it does (issue 15).
 */
function demandWriteOn(principal: Principal, branch: ModelBranchRow): void {
  if (branch.kind === 'dev') return;
  const deployment = { type: 'deployment', id: branch.deployment_id } as const;
  if (branch.is_default) demand(principal, 'DeploymentUpdate', deployment, `deploy to the deploy branch ${branch.name}`);
  else demand(principal, 'SchemaUpdate', deployment, `deploy to shared branch ${branch.name}`);
}
