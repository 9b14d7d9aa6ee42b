import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth notifications', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  const run = async (argv: string[], code = 0) => {
    // A terminal on stderr, so progress lines ("Created …") are printed there.
    const result = await plinth(argv, { env: env(), stderrIsTTY: true });
    expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(code);
    return result;
  };

  /** A deployment with a published one-widget dashboard, made through the CLI as a person would. */
  async function dashboard() {
    const d = String((await ctx().server.services.deployments.create(ctx().accountId, { name: 'd' }, ctx().url)).id);
    const workbook = JSON.parse((await run(['workbooks', 'create', d, '--name', 'Sales', '--json'])).stdout);
    const draft = JSON.stringify({
      title: 'Board',
      widgets: [{ id: 't1', type: 'TEXT', position: { x: 0, y: 0, w: 4, h: 2 }, config: { text: 'hi' } }],
    });
    await run(['workbooks', 'dashboard', d, String(workbook.id), '-d', draft]);
    const published = JSON.parse((await run(['workbooks', 'publish', d, String(workbook.id), '--json'])).stdout);
    return { d, dashboardId: String(published.id) };
  }

  it('create, list, get, update, recipients, runs and delete', async () => {
    const { d, dashboardId } = await dashboard();
    const created = await run([
      'notifications',
      'create',
      d,
      '--dashboard',
      dashboardId,
      '--schedule',
      'WEEKLY',
      '--day-of-week',
      '1',
      '--hour',
      '9',
      '--timezone',
      'Europe/Berlin',
    ]);
    expect(created.stderr).toMatch(/Created notification \d+/);
    expect(created.stdout).toMatch(/Schedule\s+Every Monday at 09:00 \(Europe\/Berlin\)/);
    const id = /Created notification (\d+)/.exec(created.stderr)![1]!;

    const listed = await run(['notifications', 'list', d]);
    expect(listed.stdout).toMatch(/ID\s+DASHBOARD\s+SCHEDULE/i);
    expect(listed.stdout).toContain('Every Monday at 09:00');
    const shown = JSON.parse((await run(['notifications', 'get', d, id, '--json'])).stdout);
    expect(shown).toMatchObject({ cronExpression: '0 9 * * 1', timezone: 'Europe/Berlin', isEnabled: true });

    const updated = JSON.parse(
      (await run(['notifications', 'update', d, id, '--schedule', 'CUSTOM', '--cron', '30 9 * * 1-5', '--format', 'pdf', '--json'])).stdout,
    );
    expect(updated).toMatchObject({
      cronExpression: '30 9 * * 1-5',
      notificationFormat: 'pdf',
      humanReadableSchedule: 'At 09:30, Monday through Friday (Europe/Berlin)',
    });
    const bad = await run(['notifications', 'update', d, id, '--schedule', 'WEEKLY'], 1);
    expect(bad.stderr).toMatch(/a WEEKLY schedule needs dayOfWeek/);

    const added = await run(['notifications', 'add-recipients', d, id, '--user', ctx().admin.email, '--slack', 'C0123:sales']);
    expect(added.stderr).toMatch(/Added 2, updated 0, unchanged 0/);
    const recipients = await run(['notifications', 'recipients', d, id]);
    expect(recipients.stdout).toMatch(/SLACK\s.*C0123\s+sales/);
    expect(recipients.stdout).toContain(ctx().admin.email);
    const duplicate = await run(['notifications', 'add-recipients', d, id, '--slack', 'C9', '--slack', 'C9'], 1);
    expect(duplicate.stderr).toMatch(/Duplicate recipients: recipients\[1\] repeats recipients\[0\] \(SLACK C9\)/);
    await run(['notifications', 'remove-recipients', d, id, '--slack', 'C0123', '--user', String(ctx().admin.id)]);
    expect(JSON.parse((await run(['notifications', 'recipients', d, id, '--json'])).stdout).items).toEqual([]);
    const none = await run(['notifications', 'add-recipients', d, id], 2);
    expect(none.stderr).toMatch(/--user or --slack/);

    const runs = JSON.parse((await run(['notifications', 'runs', d, id, '--json'])).stdout);
    expect(runs.items).toEqual([]);

    await run(['notifications', 'delete', d, id]);
    const gone = await run(['notifications', 'get', d, id], 1);
    expect(gone.stderr).toMatch(/Notification \d+ not found/);
  });
});
