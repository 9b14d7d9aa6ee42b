import { randomBytes } from 'node:crypto';
import type { AccountRow } from '../../store/schema.js';
import type { Principal } from '../../http/principal.js';
import type { TestServer } from '../../test-support/server.js';
import type { ContentItem, ContentType } from './content-access.js';
import { findContent } from './content-resource.js';

/**
 * Workspace content written straight into the store, for the tests of access and policies: the
 * folders, reports and workbooks modules serve it, but these tests must not depend on their routes.
 */
export function contentIn(server: TestServer, accountId: number, deploymentId: number) {
  const db = server.store.db;
  const base = { account_id: accountId, deployment_id: deploymentId };
  const name = (prefix: string) => `${prefix} ${randomBytes(4).toString('hex')}`;
  return {
    folder: async (createdBy: number | null, parentId: number | null = null) =>
      (
        await db
          .insertInto('folder')
          .values({ ...base, parent_id: parentId, name: name('folder'), created_by: createdBy, updated_by: createdBy })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    report: async (createdBy: number | null, folderId: number | null = null, workbookId: number | null = null) =>
      (
        await db
          .insertInto('report')
          .values({
            ...base,
            folder_id: folderId,
            workbook_id: workbookId,
            public_id: randomBytes(6).toString('hex'),
            name: name('report'),
            title: null,
            description: null,
            source: null,
            json_query: null,
            sql_query: null,
            pivot_items: null,
            meta: null,
            end_result_cell: null,
            external_workbook_id: null,
            result_location: null,
            snapshot: null,
            refresh_error: null,
            refreshed_by: null,
            created_by: createdBy,
            updated_by: createdBy,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    workbook: async (createdBy: number | null, folderId: number | null = null) =>
      (
        await db
          .insertInto('workbook')
          .values({
            ...base,
            folder_id: folderId,
            name: name('workbook'),
            dashboard_draft: null,
            created_by: createdBy,
            updated_by: createdBy,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    dashboard: async (workbookId: number, createdBy: number | null) =>
      (
        await db
          .insertInto('dashboard')
          .values({
            ...base,
            workbook_id: workbookId,
            public_id: randomBytes(6).toString('hex'),
            title: null,
            description: null,
            created_by: createdBy,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    /** The item as access decides on it, read back from the store. */
    item: async (type: ContentType, id: number): Promise<ContentItem> => (await findContent(db, accountId, type, id))!,
  };
}

/** The principal a credential verifies to, through the app's own verifiers (so its policies are loaded as in a request). */
export async function principalOf(server: TestServer, accountId: number, authorization: string): Promise<Principal> {
  const account = (await server.store.db
    .selectFrom('account')
    .selectAll()
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow()) as AccountRow;
  const [scheme, secret] = authorization.split(' ') as [string, string];
  const verifiers = server.app.credentialVerifiers;
  return scheme === 'Api-Key' ? verifiers.apiKey!(account, secret) : verifiers.accessToken!(account, secret);
}
