import { expect, it } from 'vitest';
import type { Principal } from '../../http/principal.js';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { contentPermission, type ContentItem } from './content-access.js';
import { contentIn, principalOf } from './content.fixtures.js';

type Level = 'Manage' | 'Edit' | 'Read' | null;
const LEVELS = ['Read', 'Edit', 'Manage'] as const;

/**
 * The workspace every case runs on: grand (made by `folderMaker`) › parent (made by the owner) ›
 * a report, a workbook and its dashboard (the owner's); a report at the root; and who reaches what.
 */
async function workspace(server: TestServer) {
  const account = await server.newAccount();
  const services = server.services;
  const d = (await services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
  const other = (await services.deployments.create(account.id, { name: 'o' }, 'http://localhost')).id;
  const content = contentIn(server, account.id, d);
  const owner = account.member;
  const [nonOwner, shared, grouped, granded, folderMaker, globalReader, deploymentEditor] = await Promise.all(
    Array.from({ length: 7 }, () => account.addUser('member')),
  );
  const grand = await content.folder(folderMaker!.id);
  const parent = await content.folder(owner.id, grand);
  const report = await content.report(owner.id, parent);
  const workbook = await content.workbook(owner.id, parent);
  const dashboard = await content.dashboard(workbook, owner.id);
  const rootReport = await content.report(owner.id);
  const policy = (subject: { userId: number } | { groupId: number }, resourceType: string, resourceId: number, action: string) =>
    server.store.db
      .insertInto('resource_policy')
      .values({
        account_id: account.id,
        user_id: null,
        group_id: null,
        ...toColumns(subject),
        resource_type: resourceType,
        resource_id: resourceId,
        action,
      })
      .execute();
  await policy({ userId: shared!.id }, 'Report', report, 'ReportRead');
  const editors = await services.groups.create(account.id, { name: 'editors' });
  await services.groups.addMembers(account.id, editors.id, [grouped!.id]);
  await policy({ groupId: editors.id }, 'Workbook', workbook, 'WorkbookEdit');
  await policy({ userId: granded!.id }, 'Folder', grand, 'FolderRead');
  const readers = await services.groups.create(account.id, { name: 'readers' });
  await services.groups.addMembers(account.id, readers.id, [globalReader!.id]);
  await policy({ groupId: readers.id }, 'Global', 0, 'ReportRead');
  await policy({ userId: deploymentEditor!.id }, 'Deployment', d, 'ReportEdit');
  const token = async (user: { id: number }) => `Bearer ${await account.accessToken(user as never)}`;
  const key = async (user: { id: number }, input: { permissions?: string[]; deploymentIds: number[] | null; role?: 'admin' | 'member' }) =>
    `Api-Key ${(await services.credentials.createApiKey(account.id, user.id, { name: 'k', role: input.role ?? 'member', ...input } as never)).key}`;
  const items = {
    grand: await content.item('Folder', grand),
    parent: await content.item('Folder', parent),
    report: await content.item('Report', report),
    workbook: await content.item('Workbook', workbook),
    dashboard: await content.item('Dashboard', dashboard),
    rootReport: await content.item('Report', rootReport),
  };
  const who = { owner, nonOwner: nonOwner!, shared: shared!, grouped: grouped!, granded: granded!, folderMaker: folderMaker! };
  return { account, d, other, content, items, who, globalReader: globalReader!, deploymentEditor: deploymentEditor!, token, key };
}

const toColumns = (subject: { userId: number } | { groupId: number }) =>
  'userId' in subject ? { user_id: subject.userId } : { group_id: subject.groupId };

type World = Awaited<ReturnType<typeof workspace>>;
type ItemName = keyof World['items'];

const ALL = { grand: 'Manage', parent: 'Manage', report: 'Manage', workbook: 'Manage', dashboard: 'Manage', rootReport: 'Manage' } as const;
const OWNED = { parent: 'Manage', report: 'Manage', workbook: 'Manage', dashboard: 'Manage', rootReport: 'Manage' } as const;

/** Who, and the level each holds on every item (a missing item: none). */
const TABLE: Array<[string, (w: World) => Promise<string> | Principal | string, Partial<Record<ItemName, Level>>]> = [
  ['an admin', (w) => w.token(w.account.admin), ALL],
  ['an admin API key', (w) => `Api-Key ${w.account.admin.apiKey}`, ALL],
  ['the owner', (w) => w.token(w.who.owner), OWNED],
  ["the owner's API key", (w) => `Api-Key ${w.who.owner.apiKey}`, OWNED],
  ['a member who owns nothing', (w) => w.token(w.who.nonOwner), {}],
  ['a user policy on the item', (w) => w.token(w.who.shared), { report: 'Read' }],
  ['a group policy on the workbook (and its dashboard)', (w) => w.token(w.who.grouped), { workbook: 'Edit', dashboard: 'Edit' }],
  [
    'a policy on the grandparent folder',
    (w) => w.token(w.who.granded),
    { grand: 'Read', parent: 'Read', report: 'Read', workbook: 'Read', dashboard: 'Read' },
  ],
  [
    "the folder's creator, over what others put in it",
    (w) => w.token(w.who.folderMaker),
    { grand: 'Manage', parent: 'Manage', report: 'Manage', workbook: 'Manage', dashboard: 'Manage' },
  ],
  ['a Global group policy ReportRead (access token)', (w) => w.token(w.globalReader), { report: 'Read', rootReport: 'Read' }],
  [
    'a Global group policy ReportRead (API key of a role)',
    (w) => `Api-Key ${w.globalReader.apiKey}`,
    { report: 'Read', rootReport: 'Read' },
  ],
  ['a Deployment user policy ReportEdit', (w) => w.token(w.deploymentEditor), { report: 'Edit', rootReport: 'Edit' }],
  [
    'an API key with its own ReportRead',
    (w) => w.key(w.account.admin, { permissions: ['ReportRead'], deploymentIds: [w.d] }),
    { report: 'Read', rootReport: 'Read' },
  ],
  ["the owner's key with its own SchemaRead only", (w) => w.key(w.who.owner, { permissions: ['SchemaRead'], deploymentIds: [w.d] }), {}],
  ['an admin key limited to another deployment', (w) => w.key(w.account.admin, { role: 'admin', deploymentIds: [w.other] }), {}],
  ["the owner's key limited to another deployment", (w) => w.key(w.who.owner, { deploymentIds: [w.other] }), {}],
  ['a SCIM token', (w) => ({ kind: 'scimToken', accountId: w.account.id, credentialId: 0 }), {}],
  [
    'a data API token',
    (w) => ({ kind: 'dataToken', accountId: w.account.id, claims: { deploymentId: w.d, securityContext: {}, expiresAt: null } }),
    {},
  ],
  ['an embed token', (w) => ({ kind: 'embedToken', accountId: w.account.id, claims: { deploymentId: w.d } as never }), {}],
];

const expectedOn = (item: ContentItem, level: Level) =>
  level === null
    ? []
    : LEVELS.slice(0, LEVELS.indexOf(level) + 1)
        .map((l) => contentPermission(item.type, l))
        .sort();

async function resolve(server: TestServer, w: World, credential: Promise<string> | Principal | string): Promise<Principal> {
  const value = await credential;
  return typeof value === 'string' ? principalOf(server, w.account.id, value) : value;
}

describeOnStores('content access: who holds what', (server) => {
  it.each(TABLE)('%s', async (_, credential, expected) => {
    const w = await workspace(server());
    const principal = await resolve(server(), w, credential(w));
    const access = server().services.contentAccess;
    for (const [name, item] of Object.entries(w.items) as Array<[ItemName, ContentItem]>) {
      const family = new Set(expectedOn(item, 'Manage'));
      const held = [...(await access.actionsOn(principal, item))].filter((p) => family.has(p)).sort();
      expect(held, `${name}`).toEqual(expectedOn(item, expected[name] ?? null));
    }
  });

  it('demand: 404 without Read, 403 naming the action without the level', async () => {
    const w = await workspace(server());
    const access = server().services.contentAccess;
    const stranger = await principalOf(server(), w.account.id, await w.token(w.who.nonOwner));
    await expect(access.demand(stranger, w.items.report, 'Read')).rejects.toMatchObject({ status: 404 });
    const reader = await principalOf(server(), w.account.id, await w.token(w.who.shared));
    await expect(access.demand(reader, w.items.report, 'Read')).resolves.toBeUndefined();
    await expect(access.demand(reader, w.items.report, 'Edit')).rejects.toThrow(
      `This credential does not grant ReportEdit on report ${w.items.report.id}`,
    );
  });

  it('readScope and readable list exactly what each may read', async () => {
    const w = await workspace(server());
    const { db } = server().store;
    const access = server().services.contentAccess;
    const elsewhere = await contentIn(server(), w.account.id, w.other).report(w.who.owner.id);
    const list = async (credential: Promise<string> | string, table: 'folder' | 'report' | 'workbook') => {
      const principal = await principalOf(server(), w.account.id, await credential);
      const type = ({ folder: 'Folder', report: 'Report', workbook: 'Workbook' } as const)[table];
      const scope = await access.readScope(principal, w.d, type);
      const rows = await db
        .selectFrom(table)
        .select('id')
        .where('deployment_id', '=', w.d)
        .where(access.readable(table, scope))
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    };
    const { grand, parent, report, workbook, rootReport } = w.items;
    expect(await list(w.token(w.account.admin), 'report')).toEqual([report.id, rootReport.id]);
    expect(await list(w.token(w.who.owner), 'report')).toEqual([report.id, rootReport.id]);
    expect(await list(w.token(w.who.owner), 'folder')).toEqual([parent.id]);
    expect(await list(w.token(w.who.nonOwner), 'report')).toEqual([]);
    expect(await list(w.token(w.who.shared), 'report')).toEqual([report.id]);
    expect(await list(w.token(w.who.grouped), 'workbook')).toEqual([workbook.id]);
    expect(await list(w.token(w.who.granded), 'folder')).toEqual([grand.id, parent.id]);
    expect(await list(w.token(w.who.granded), 'report')).toEqual([report.id]);
    expect(await list(w.token(w.who.folderMaker), 'report')).toEqual([report.id]);
    expect(await list(w.token(w.globalReader), 'report')).toEqual([report.id, rootReport.id]);
    expect(await list(`Api-Key ${w.globalReader.apiKey}`, 'workbook')).toEqual([]);
    expect(await list(w.key(w.account.admin, { permissions: ['ReportRead'], deploymentIds: [w.d] }), 'report')).toEqual([
      report.id,
      rootReport.id,
    ]);
    expect(await list(w.key(w.account.admin, { permissions: ['ReportRead'], deploymentIds: [w.d] }), 'folder')).toEqual([]);
    expect(await list(w.key(w.account.admin, { role: 'admin', deploymentIds: [w.other] }), 'report')).toEqual([]);
    expect(await list(w.key(w.who.owner, { deploymentIds: [w.other] }), 'report')).toEqual([]);
    expect(elsewhere).not.toBe(report.id);
  });

  it('a report in a workbook is reached through the workbook, level for level, in decisions and in lists', async () => {
    const w = await workspace(server());
    const access = server().services.contentAccess;
    const db = server().store.db;
    const workbookId = w.items.workbook.id;
    // The owner's workbook is shared with the editors group (WorkbookEdit); its report was made by someone else.
    const inWorkbook = await w.content.item('Report', await w.content.report(w.who.nonOwner.id, null, workbookId));
    const principal = async (user: { id: number }) => principalOf(server(), w.account.id, await w.token(user));
    const levels = async (user: { id: number }) => [...(await access.actionsOn(await principal(user), inWorkbook))].sort();
    expect(await levels(w.who.grouped)).toEqual(['ReportEdit', 'ReportRead']);
    expect(await levels(w.who.owner)).toEqual(['ReportEdit', 'ReportManage', 'ReportRead']);
    expect(await levels(w.who.nonOwner)).toEqual(['ReportEdit', 'ReportManage', 'ReportRead']);
    expect(await levels(w.who.shared)).toEqual([]);
    const listed = async (user: { id: number }) => {
      const scope = await access.readScope(await principal(user), w.d, 'Report');
      const rows = await db
        .selectFrom('report')
        .select('id')
        .where('deployment_id', '=', w.d)
        .where(access.readable('report', scope))
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    };
    expect(await listed(w.who.grouped)).toEqual([inWorkbook.id]);
    expect(await listed(w.who.shared)).toEqual([w.items.report.id]);
  });

  it('a revoked policy or a left group takes effect on the next call', async () => {
    const w = await workspace(server());
    const access = server().services.contentAccess;
    const policies = server().services.resourcePolicies;
    const admin = await principalOf(server(), w.account.id, `Api-Key ${w.account.admin.apiKey}`);
    const reader = await principalOf(server(), w.account.id, await w.token(w.who.shared));
    const groupie = await principalOf(server(), w.account.id, await w.token(w.who.grouped));
    expect(await access.actionsOn(reader, w.items.report)).toContain('ReportRead');
    await policies.updateUser(admin, { resourceType: 'Report', resourceId: w.items.report.id, userId: w.who.shared.id, action: null });
    // The same principal, not re-verified: the decision reads the store every time.
    expect([...(await access.actionsOn(reader, w.items.report))]).toEqual([]);
    expect(await access.readScope(reader, w.d, 'Report')).toMatchObject({ itemIds: [] });
    expect(await access.actionsOn(groupie, w.items.dashboard)).toContain('WorkbookEdit');
    await server().store.db.deleteFrom('group_member').where('user_id', '=', w.who.grouped.id).execute();
    expect([...(await access.actionsOn(groupie, w.items.dashboard))]).toEqual([]);
  });
});
