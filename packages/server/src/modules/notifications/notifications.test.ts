import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount, type TestServer, type TestUser } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import { notificationFixture } from './test-fixtures.js';

async function grant(server: TestServer, account: TestAccount, user: TestUser, resourceType: string, resourceId: number, action: string) {
  await server.store.db
    .insertInto('resource_policy')
    .values({ account_id: account.id, user_id: user.id, group_id: null, resource_type: resourceType, resource_id: resourceId, action })
    .execute();
}

const slack = (channelId: string, channelName?: string) => ({ type: 'SLACK', channelId, ...(channelName ? { channelName } : {}) });

describeOnStores('notifications', (server) => {
  describe('create, get, list, update, delete', () => {
    it('keeps the schedule with its cron, words and next run; lists newest first; deletes', async () => {
      const account = await server().newAccount();
      const f = await notificationFixture(server(), account);
      const created = await f.call('POST', '', {
        dashboardId: f.dashboard.id,
        scheduleType: 'WEEKLY',
        dayOfWeek: 1,
        hour: 9,
        minute: 30,
        timezone: 'Europe/Berlin',
        notificationFormat: 'pdf',
      });
      expect(created.status, created.text).toBe(200);
      expect(created.body).toMatchObject({
        dashboardId: f.dashboard.id,
        deploymentId: f.deploymentId,
        cronExpression: '30 9 * * 1',
        timezone: 'Europe/Berlin',
        isEnabled: true,
        notificationEnabled: true,
        notificationFormat: 'pdf',
        humanReadableSchedule: 'Every Monday at 09:30 (Europe/Berlin)',
        scheduleType: 'WEEKLY',
      });
      expect(new Date(created.body.nextRunAt).getTime()).toBeGreaterThan(Date.now());
      const second = await f.call('POST', '', { dashboardId: f.dashboard.id, scheduleType: 'HOURLY' });
      expect(second.body.notificationFormat).toBe('png');

      const got = await f.call('GET', `/${created.body.id}`);
      expect(got.body).toEqual(created.body);
      const list = await f.call('GET', '?first=1');
      expect(list.body.items.map((n: { id: number }) => n.id)).toEqual([second.body.id]);
      const next = await f.call('GET', `?first=1&after=${list.body.pageInfo.endCursor}`);
      expect(next.body.items.map((n: { id: number }) => n.id)).toEqual([created.body.id]);
      expect((await f.call('GET', `?dashboardId=${f.dashboard.id + 1000}`)).body.items).toEqual([]);

      const updated = await f.call('PUT', `/${created.body.id}`, { scheduleType: 'DAILY', hour: 7 });
      expect(updated.status, updated.text).toBe(200);
      // A new type starts from its own fields: the weekly day and minute are gone, the zone stays.
      expect(updated.body).toMatchObject({
        cronExpression: '0 7 * * *',
        timezone: 'Europe/Berlin',
        dayOfWeek: null,
        notificationFormat: 'pdf',
      });
      const off = await f.call('PUT', `/${created.body.id}`, { isEnabled: false, notificationEnabled: false });
      expect(off.body).toMatchObject({ isEnabled: false, notificationEnabled: false, nextRunAt: null });
      const on = await f.call('PUT', `/${created.body.id}`, { isEnabled: true, minute: 45 });
      expect(on.body.cronExpression).toBe('45 7 * * *');
      expect(on.body.nextRunAt).not.toBeNull();

      expect((await f.call('DELETE', `/${created.body.id}`)).status).toBe(204);
      const gone = await f.call('GET', `/${created.body.id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error).toBe(`Notification ${created.body.id} not found`);
    });

    it('refuses a bad schedule, an unknown field and a dashboard of another deployment, saying why', async () => {
      const account = await server().newAccount();
      const f = await notificationFixture(server(), account);
      const other = await notificationFixture(server(), account);
      const bad = async (body: Record<string, unknown>, status: number, message: string | RegExp) => {
        const response = await f.call('POST', '', { dashboardId: f.dashboard.id, ...body });
        expect(response.status, response.text).toBe(status);
        expect(response.body.error).toMatch(message);
      };
      await bad({ scheduleType: 'WEEKLY' }, 400, 'a WEEKLY schedule needs dayOfWeek');
      await bad({ scheduleType: 'DAILY', dayOfMonth: 3 }, 400, 'dayOfMonth is not used by a DAILY schedule; leave it out');
      await bad({ scheduleType: 'CUSTOM', customCron: 'every day' }, 400, /customCron "every day" must have 5 fields/);
      await bad({ scheduleType: 'HOURLY', timezone: 'Nowhere/City' }, 400, /timezone "Nowhere\/City" is not an IANA time zone/);
      await bad({ scheduleType: 'MINUTELY' }, 400, /scheduleType/);
      await bad({ scheduleType: 'HOURLY', notificationFormat: 'gif' }, 400, /notificationFormat/);
      await bad({ scheduleType: 'HOURLY', recipients: [] }, 400, /recipients/);
      await bad({ scheduleType: 'HOURLY', dashboardId: other.dashboard.id }, 404, `Dashboard ${other.dashboard.id} not found`);
      const update = await f.call('PUT', '/999999', { minute: 1 });
      expect(update.status).toBe(404);
      const missingDeployment = await account.request({
        method: 'GET',
        url: '/api/v1/deployments/999999/notifications',
        as: account.admin,
      });
      expect(missingDeployment.status).toBe(404);
    });
  });

  describe('access follows the content policies of the dashboard', () => {
    it('a member without access sees none; Read lets them see it; Edit lets them change it', async () => {
      const account = await server().newAccount();
      const f = await notificationFixture(server(), account, { notification: true });
      const other = await account.addUser('member');
      const as = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => f.call(method, url, body, other);

      expect((await as('GET', '')).body.items).toEqual([]);
      expect((await as('GET', `/${f.notificationId}`)).status).toBe(404);
      const create = await as('POST', '', { dashboardId: f.dashboard.id, scheduleType: 'HOURLY' });
      expect(create.status).toBe(404);
      expect(create.body.error).toBe(`Dashboard ${f.dashboard.id} not found`);

      await grant(server(), account, other, 'Workbook', f.workbook.id, 'WorkbookRead');
      expect((await as('GET', '')).body.items.map((n: { id: number }) => n.id)).toEqual([f.notificationId]);
      expect((await as('GET', `/${f.notificationId}/recipients`)).status).toBe(200);
      expect((await as('GET', `/${f.notificationId}/runs`)).status).toBe(200);
      const change = await as('PUT', `/${f.notificationId}`, { minute: 5 });
      expect(change.status).toBe(403);
      expect(change.body.error).toMatch(/does not grant WorkbookEdit/);
      expect((await as('POST', `/${f.notificationId}/recipients`, { recipients: [slack('C1')] })).status).toBe(403);
      expect((await as('DELETE', `/${f.notificationId}`)).status).toBe(403);

      await grant(server(), account, other, 'Dashboard', f.dashboard.id, 'WorkbookEdit');
      expect((await as('PUT', `/${f.notificationId}`, { minute: 5 })).status).toBe(200);
      expect((await as('POST', '', { dashboardId: f.dashboard.id, scheduleType: 'HOURLY' })).status).toBe(200);
    });
  });

  describe('recipients', () => {
    it('adds users, embed users and Slack channels idempotently, updates what changed, lists and removes them', async () => {
      const account = await server().newAccount();
      const f = await notificationFixture(server(), account, { notification: true });
      const recipients = `/${f.notificationId}/recipients`;
      // Keys jsonb keeps in another order than sent: sent again as it was, the recipient is unchanged.
      const embed = {
        type: 'EMBED_USER',
        embedTenantName: 'acme-corp',
        externalId: 'Ann@Example.com',
        groups: ['east'],
        securityContext: { region: 'east', a: 1, team: { z: 1, b: 2 } },
      };
      const added = await f.call('POST', recipients, {
        recipients: [
          { type: 'USER', userId: account.admin.id },
          { type: 'USER', email: account.member.email.toUpperCase() },
          embed,
          {
            type: 'EMBED_USER',
            embedTenantName: 'acme-corp',
            externalId: 'bob',
            email: 'bob@example.com',
            userAttributes: [{ name: 'country', value: 'FR' }],
          },
          slack('C0123', 'sales'),
        ],
      });
      expect(added.status, added.text).toBe(200);
      expect(added.body.createdRecipients).toHaveLength(5);
      expect(added.body.createdRecipients[1]).toMatchObject({ type: 'USER', userId: account.member.id, email: account.member.email });
      const ann = added.body.createdRecipients.find((r: { externalId: string | null }) => r.externalId === 'ann@example.com');
      expect(ann).toMatchObject({ type: 'EMBED_USER', email: 'ann@example.com', embedTenantName: 'acme-corp', groups: ['east'] });
      expect(ann.embedUserId).toEqual(expect.any(Number));

      const again = await f.call('POST', recipients, {
        recipients: [{ type: 'USER', userId: account.admin.id }, { ...embed, groups: ['west'] }, slack('C0123', 'sales-team')],
      });
      expect(again.status, again.text).toBe(200);
      expect(again.body.createdRecipients).toEqual([]);
      expect(again.body.unchangedRecipients.map((r: { userId: number }) => r.userId)).toEqual([account.admin.id]);
      expect(
        again.body.updatedRecipients.map((r: { groups: string[] | null; channelName: string | null }) => r.groups ?? r.channelName),
      ).toEqual([['west'], 'sales-team']);

      const same = await f.call('POST', recipients, { recipients: [{ ...embed, groups: ['west'] }] });
      expect(same.body.unchangedRecipients).toHaveLength(1);
      const listed = await f.call('GET', `${recipients}?first=2`);
      expect(listed.body.items).toHaveLength(2);
      expect(listed.body.pageInfo.hasNextPage).toBe(true);

      const removed = await f.call('DELETE', recipients, {
        recipients: [
          { type: 'USER', id: account.admin.id },
          { type: 'EMBED_USER', id: ann.embedUserId, embedTenantName: 'acme-corp' },
          { type: 'EMBED_USER', id: 'BOB', embedTenantName: 'acme-corp' },
          { type: 'SLACK', id: 'C0123' },
          { type: 'SLACK', id: 'C-not-subscribed' },
        ],
      });
      expect(removed.status, removed.text).toBe(204);
      const left = await f.call('GET', recipients);
      expect(left.body.items.map((r: { userId: number }) => r.userId)).toEqual([account.member.id]);
      const needsTenant = await f.call('DELETE', recipients, { recipients: [{ type: 'EMBED_USER', id: 'bob' }] });
      expect(needsTenant.status).toBe(400);
      expect(needsTenant.body.error).toBe('recipients[0]: removing an EMBED_USER recipient needs embedTenantName');
    });

    it('takes 1 to 1000 per request, refuses duplicates naming them, and says what is wrong with an entry', async () => {
      const account = await server().newAccount();
      const f = await notificationFixture(server(), account, { notification: true });
      const add = (recipients: unknown[]) => f.call('POST', `/${f.notificationId}/recipients`, { recipients });
      const refused = async (recipients: unknown[], message: string | RegExp) => {
        const response = await add(recipients);
        expect(response.status, response.text).toBe(400);
        expect(response.body.error).toMatch(message);
      };
      await refused([], 'recipients must have at least 1 item');
      await refused(
        Array.from({ length: 1001 }, (_, i) => slack(`C${i}`)),
        'recipients must have at most 1000 items',
      );
      const thousand = await add(Array.from({ length: 1000 }, (_, i) => slack(`C${i}`)));
      expect(thousand.status, thousand.text).toBe(200);
      expect(thousand.body.createdRecipients).toHaveLength(1000);
      await refused(
        [slack('CX'), { type: 'USER', userId: account.admin.id }, slack('CX'), { type: 'USER', email: account.admin.email }],
        `Duplicate recipients: recipients[2] repeats recipients[0] (SLACK CX); recipients[3] repeats recipients[1] (USER ${account.admin.id})`,
      );
      await refused([{ type: 'USER' }], 'recipients[0]: a USER recipient needs userId or email, one of them');
      await refused([{ type: 'USER', userId: 99999999 }], 'recipients[0]: no user of this account has userId 99999999');
      await refused(
        [{ type: 'USER', email: 'nobody@example.com' }],
        'recipients[0]: no user of this account has email "nobody@example.com"',
      );
      await refused([{ type: 'USER', email: 'not-an-email' }], /recipients\[0\]: email "not-an-email" is not a valid email address/);
      await refused(
        [{ type: 'SLACK', channelId: 'C1', externalId: 'x' }],
        'recipients[0]: externalId is not a field of a SLACK recipient (it takes channelId, channelName)',
      );
      await refused([{ type: 'SLACK' }], /recipients\[0\]: a SLACK recipient needs channelId/);
      await refused(
        [{ type: 'EMBED_USER', externalId: 'ann@example.com' }],
        'recipients[0]: an EMBED_USER recipient needs embedTenantName',
      );
      await refused(
        [{ type: 'EMBED_USER', embedTenantName: 'acme-corp', externalId: 'ann' }],
        'recipients[0]: EMBED_USER "ann" has no email to send to: give email, or an email-shaped externalId',
      );
      await refused([{ type: 'PIGEON' }], /type/);
      // Nothing of a refused request was written.
      const stored = await server()
        .store.db.selectFrom('notification_recipient')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('notification_id', '=', f.notificationId)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(1000);
      const tooMany = await f.call('DELETE', `/${f.notificationId}/recipients`, { recipients: [] });
      expect(tooMany.status).toBe(400);
    });
  });

  authorizationSuite(server, cases);
});
