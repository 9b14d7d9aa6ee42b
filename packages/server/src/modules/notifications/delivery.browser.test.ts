import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createJobRunner } from '../../jobs/index.js';
import type { JobRunner } from '../../jobs/runner.js';
import { startSlackStandIn, startSmtpStandIn } from '../../test-support/index.js';
import { describeOnStores } from '../../test-support/server.js';
import { embedSite, type EmbedSite } from '../embed-pages/test-fixtures.js';
import { closeRenderingBrowsers } from '../rendering/public.js';
import { DELIVERY_ATTEMPTS } from './deliver-job.js';

/**
 * Notifications run end to end: the schedule claimed from the store, the dashboard rendered in
 * the process's Chromium as each recipient sees it (the demo deployment's policy shows an embed
 * user their country's rows), and mail and Slack messages received by local stand-ins. The clock
 * of the job queue is moved to a notification's slot instead of waiting for it.
 */
const smtp = await startSmtpStandIn();
const slack = await startSlackStandIn({ channels: ['C0SALES'] });
afterAll(async () => {
  await closeRenderingBrowsers();
  await smtp.close();
  await slack.close();
});

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const embedUser = (externalId: string, tenant: string, country: string) => ({
  type: 'EMBED_USER',
  embedTenantName: tenant,
  externalId,
  userAttributes: [{ name: 'country', value: country }],
  securityContext: { segment: 'consumer' },
});

describeOnStores(
  'notifications delivered',
  (server) => {
    let site: EmbedSite;
    let dashboardId: number;
    beforeAll(async () => {
      site = await embedSite(server());
      const dashboard = await site.account.request({
        method: 'GET',
        url: `/api/v1/embed/dashboard/${site.publicId}`,
        as: site.account.admin,
      });
      dashboardId = dashboard.body.id;
      await server().services.delivery.slackTokens.set(site.account.id, site.account.admin.id, slack.token);
    });
    beforeEach(async () => {
      // Each test's notifications only: one left by a failed test would be due in the next.
      await server().store.db.deleteFrom('notification').where('account_id', '=', site.account.id).execute();
      smtp.messages.length = 0;
      slack.messages.length = 0;
      slack.files.length = 0;
    });

    const base = () => `/api/v1/deployments/${site.deploymentId}/notifications`;
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
      site.account.request({ method, url: `${base()}${url}`, as: site.account.admin, body });

    async function notification(schedule: Record<string, unknown>, recipients: unknown[]) {
      const created = await call('POST', '', { dashboardId, ...schedule });
      expect(created.status, created.text).toBe(200);
      const added = await call('POST', `/${created.body.id}/recipients`, { recipients });
      expect(added.status, added.text).toBe(200);
      return created.body as { id: number; nextRunAt: string };
    }

    /** Runners whose clocks stand at `at`: the slot has come for them. */
    function at(time: number, ...runners: JobRunner[]) {
      for (const runner of runners) runner.queue.now = () => time;
    }
    const runs = async (id: number) => (await call('GET', `/${id}/runs`)).body.items;
    let runner: JobRunner;
    beforeEach(() => {
      runner = server().jobs;
      at(Date.now(), runner);
    });
    afterAll(() => {
      server().jobs.queue.now = Date.now;
    });

    it('a CUSTOM schedule fires: the e-mail has the PNG inline and the PDF attached, the Slack channel the image; the run records each delivery', async () => {
      const n = await notification({ scheduleType: 'CUSTOM', customCron: '*/10 * * * *', notificationFormat: 'pdf' }, [
        { type: 'USER', userId: site.account.member.id },
        { type: 'SLACK', channelId: 'C0SALES', channelName: 'sales' },
      ]);
      const slot = new Date(n.nextRunAt).getTime();
      await runner.scheduler.tick();
      await runner.runUntilIdle();
      expect(await runs(n.id)).toEqual([]);
      at(slot + 1_000, runner);
      await runner.scheduler.tick();
      await runner.runUntilIdle();

      expect(smtp.messages).toHaveLength(1);
      const mail = smtp.messages[0]!;
      expect(mail.to).toEqual([site.account.member.email]);
      expect(mail.parsed.subject).toBe('Sales board');
      const inline = mail.parsed.attachments.find((a) => a.contentType === 'image/png');
      expect(inline?.contentDisposition).toBe('inline');
      expect(inline?.content.subarray(0, 4)).toEqual(PNG);
      const pdf = mail.parsed.attachments.find((a) => a.contentType === 'application/pdf');
      expect(pdf?.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(mail.parsed.text).toContain(`/embed/dashboard/${site.publicId}`);
      expect(slack.messages.map((m) => m.channel)).toEqual(['C0SALES']);
      expect(slack.files).toHaveLength(1);

      const [run] = await runs(n.id);
      expect(run).toMatchObject({ status: 'sent', dueAt: new Date(slot).toISOString(), renderings: 1 });
      expect(
        run.deliveries.map((d: { recipient: { type: string }; status: string; attempts: number }) => [
          d.recipient.type,
          d.status,
          d.attempts,
        ]),
      ).toEqual([
        ['USER', 'sent', 1],
        ['SLACK', 'sent', 1],
      ]);
      // Every delivery ended: the rendering's images are dropped, its data fingerprint stays.
      const rendering = await server()
        .store.db.selectFrom('notification_rendering')
        .select(['png', 'pdf', 'data_fingerprint'])
        .where('run_id', '=', run.id)
        .executeTakeFirstOrThrow();
      expect(rendering).toMatchObject({ png: null, pdf: null, data_fingerprint: expect.any(String) });
      // The next slot is the cron's next after the one run: ten minutes on.
      const after = await call('GET', `/${n.id}`);
      expect(new Date(after.body.nextRunAt).getTime()).toBe(slot + 600_000);
    });

    it('embed users with different policies get different data; those who see the same rows share one rendering', async () => {
      const tenant = site.account.name;
      const n = await notification({ scheduleType: 'HOURLY' }, [
        embedUser('ann@example.com', tenant, 'USA'),
        embedUser('carl@example.com', tenant, 'USA'),
        embedUser('bob@example.com', tenant, 'France'),
      ]);
      at(new Date(n.nextRunAt).getTime(), runner);
      await runner.scheduler.tick();
      await runner.runUntilIdle();
      expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual(['ann@example.com', 'bob@example.com', 'carl@example.com']);
      const [run] = await runs(n.id);
      expect(run.renderings).toBe(2);
      const renderings = await server()
        .store.db.selectFrom('notification_rendering')
        .innerJoin('notification_delivery', 'notification_delivery.rendering_id', 'notification_rendering.id')
        .select(['notification_delivery.recipient_key', 'notification_rendering.data_fingerprint'])
        .where('notification_rendering.run_id', '=', run.id)
        .execute();
      const print = (who: string) => renderings.find((r) => r.recipient_key.endsWith(who))!.data_fingerprint;
      expect(print('ann@example.com')).toBe(print('carl@example.com'));
      expect(print('bob@example.com')).not.toBe(print('ann@example.com'));
      const image = (who: string) => smtp.messages.find((m) => m.to[0] === who)!.parsed.attachments[0]!.content;
      expect(image('ann@example.com').equals(image('bob@example.com'))).toBe(false);
    });

    it('two processes ticking and working at once send each message once', async () => {
      const n = await notification({ scheduleType: 'HOURLY' }, [
        { type: 'USER', userId: site.account.admin.id },
        { type: 'USER', userId: site.account.member.id },
      ]);
      const other = createJobRunner({ store: server().store, services: server().services, config: server().config });
      const slot = new Date(n.nextRunAt).getTime();
      at(slot, runner, other);
      await Promise.all([runner.scheduler.tick(), other.scheduler.tick()]);
      await Promise.all([runner.runUntilIdle(), other.runUntilIdle()]);
      await Promise.all([runner.scheduler.tick(), other.scheduler.tick(), runner.runUntilIdle(), other.runUntilIdle()]);
      expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual([site.account.admin.email, site.account.member.email].sort());
      expect(await runs(n.id)).toHaveLength(1);
    });

    it('after a downtime over several slots, one run is sent, and the next slot is after now', async () => {
      const n = await notification({ scheduleType: 'HOURLY', minute: 5 }, [{ type: 'USER', userId: site.account.member.id }]);
      const back = new Date(n.nextRunAt).getTime() + 5 * 3_600_000 + 60_000;
      at(back, runner);
      // Other modules' schedules may be due too at that hour: the notification's runs are what count.
      await runner.scheduler.tick();
      await runner.scheduler.tick();
      await runner.runUntilIdle();
      await runner.scheduler.tick();
      await runner.runUntilIdle();
      expect(smtp.messages).toHaveLength(1);
      const [run] = await runs(n.id);
      expect(run.dueAt).toBe(n.nextRunAt);
      const after = await call('GET', `/${n.id}`);
      expect(new Date(after.body.nextRunAt).getTime()).toBeGreaterThan(back);
      expect(new Date(after.body.nextRunAt).getTime() - back).toBeLessThanOrEqual(3_600_000);
    });

    it('a disabled or deleted notification sends nothing more, even with its run already queued or started', async () => {
      const recipients = [{ type: 'USER', userId: site.account.member.id }];
      // Queued, then disabled: the run job sends nothing.
      const queued = await notification({ scheduleType: 'HOURLY' }, recipients);
      at(new Date(queued.nextRunAt).getTime(), runner);
      await runner.scheduler.tick();
      await call('PUT', `/${queued.id}`, { isEnabled: false });
      await runner.runUntilIdle();
      expect(await runs(queued.id)).toEqual([]);

      // Started (deliveries recorded, rendering queued), then notifications turned off: cancelled.
      const started = await notification({ scheduleType: 'HOURLY' }, recipients);
      const deliveryOnly = createJobRunner({ store: server().store, services: server().services, config: server().config }, undefined, [
        'delivery',
      ]);
      at(new Date(started.nextRunAt).getTime(), runner, deliveryOnly);
      await runner.scheduler.tick();
      await deliveryOnly.runUntilIdle();
      expect((await runs(started.id))[0].status).toBe('running');
      await call('PUT', `/${started.id}`, { notificationEnabled: false });
      await runner.runUntilIdle();
      const [cancelled] = await runs(started.id);
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.deliveries[0]).toMatchObject({
        status: 'cancelled',
        attempts: 0,
        lastError: 'the notification was disabled before it was sent',
      });

      // Started, then deleted: its queued rendering finds nothing.
      const deleted = await notification({ scheduleType: 'HOURLY' }, recipients);
      at(new Date(deleted.nextRunAt).getTime(), runner, deliveryOnly);
      await runner.scheduler.tick();
      await deliveryOnly.runUntilIdle();
      expect((await call('DELETE', `/${deleted.id}`)).status).toBe(204);
      await runner.runUntilIdle();
      expect(smtp.messages).toEqual([]);
    });

    it('a recipient no rendering can be made for fails alone, saying why; the others are sent', async () => {
      const n = await notification({ scheduleType: 'HOURLY' }, [
        { type: 'USER', userId: site.account.member.id },
        { type: 'SLACK', channelId: 'C0SALES' },
      ]);
      // A channel sees what the notification's creator sees: a creator who is no user cannot be rendered for.
      await server().store.db.updateTable('notification').set({ created_by: 2_000_000_000 }).where('id', '=', n.id).execute();
      at(new Date(n.nextRunAt).getTime(), runner);
      await runner.scheduler.tick();
      await runner.runUntilIdle();
      expect(smtp.messages).toHaveLength(1);
      expect(slack.messages).toEqual([]);
      const [run] = await runs(n.id);
      expect(run.status).toBe('partial');
      const channel = run.deliveries.find((d: { recipient: { type: string } }) => d.recipient.type === 'SLACK');
      expect(channel.status).toBe('failed');
      expect(channel.lastError).toMatch(/^rendering failed: .*User 2000000000/);
    });

    it('a refused delivery is retried with backoff and recorded per recipient; one that cannot succeed fails at once', async () => {
      const n = await notification({ scheduleType: 'HOURLY' }, [
        { type: 'USER', userId: site.account.member.id },
        { type: 'SLACK', channelId: 'C0UNKNOWN' },
      ]);
      const slot = new Date(n.nextRunAt).getTime();
      at(slot, runner);
      smtp.refuseNext(1, 451);
      await runner.scheduler.tick();
      await runner.runUntilIdle();
      let [run] = await runs(n.id);
      expect(run.status).toBe('running');
      const byType = (type: string) => run.deliveries.find((d: { recipient: { type: string } }) => d.recipient.type === type);
      expect(byType('USER')).toMatchObject({ status: 'retrying', attempts: 1, sentAt: null });
      expect(byType('USER').lastError).toMatch(/451/);
      expect(byType('SLACK')).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: 'Slack refused chat.postMessage: channel_not_found',
      });
      expect(smtp.messages).toEqual([]);

      // Before its backoff nothing is tried; after it, the retry goes through.
      await runner.runUntilIdle();
      expect(smtp.messages).toEqual([]);
      at(slot + 60_000, runner);
      await runner.runUntilIdle();
      expect(smtp.messages).toHaveLength(1);
      [run] = await runs(n.id);
      expect(run.status).toBe('partial');
      expect(byType('USER')).toBeDefined();
      const user = run.deliveries.find((d: { recipient: { type: string } }) => d.recipient.type === 'USER');
      expect(user).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
      expect(user.sentAt).not.toBeNull();

      // Refused every time: failed after the last attempt, with the reason.
      const always = await notification({ scheduleType: 'HOURLY' }, [{ type: 'USER', userId: site.account.admin.id }]);
      let now = new Date(always.nextRunAt).getTime();
      at(now, runner);
      smtp.refuseNext(DELIVERY_ATTEMPTS, 451);
      await runner.scheduler.tick();
      for (let i = 0; i < DELIVERY_ATTEMPTS; i++) {
        await runner.runUntilIdle();
        now += 3_600_000;
        at(now, runner);
      }
      const [failed] = await runs(always.id);
      expect(failed.status).toBe('failed');
      expect(failed.deliveries[0]).toMatchObject({ status: 'failed', attempts: DELIVERY_ATTEMPTS });
    });
  },
  { PLINTH_SMTP_URL: smtp.url, PLINTH_SLACK_API_URL: slack.url },
);
