/**
 * Scheduled notifications in a burst: NOTIFY_COUNT notifications of the demo dashboard, all due
 * at the same minute, NOTIFY_RECIPIENTS recipients each (one Slack channel, internal users and
 * embed users of three policy sets, by e-mail), on the built server as `npm start` runs it (one
 * process on a fresh PGlite data dir: it serves, schedules, renders in its Chromium and delivers),
 * with mail going to a local SMTP server and Slack's Web API to a local stand-in.
 *
 * Measured from the slot (the minute they fell due): when the scheduler started the runs, when
 * the first and the last delivery were recorded as sent (the server's own `sentAt`, read through
 * the runs API), how many renderings were made against how many deliveries, the server's peak
 * resident set during the burst (VmHWM, reset at the slot) and the peak PSS of the server with
 * its Chromium, and every delivery that failed, with its error.
 *
 * The notifications are created for a minute far off, then moved together to the first whole
 * minute that leaves time to move them all (a CUSTOM cron naming that minute and hour, UTC), so
 * none falls due while others are still being set up; the only wait is for that minute.
 *
 *   npm run bench:notifications   (NOTIFY_COUNT=n, default 100; NOTIFY_RECIPIENTS=r, default 10;
 *                                  NOTIFY_FORMAT=png|pdf, default png; NOTIFY_TIMEOUT_S, default 3600;
 *                                  --no-build skips `npm run build`; --no-write prints only)
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSlackStandIn } from '../packages/server/src/test-support/slack-stand-in.js';
import { startSmtpStandIn } from '../packages/server/src/test-support/smtp-stand-in.js';
import { machine, spawnServer } from './lib.js';
import {
  apiClient,
  CHANNEL,
  cpuSeconds,
  demoDashboard,
  eachLimited,
  internalUsers,
  recipientsFor,
  resetPeak,
  rssMiB,
  sampleTree,
} from './notifications-setup.js';
import { summarise, type Run } from './notifications-report.js';
import { ROOT } from './start-run.js';

const whole = (name: string, fallback: number, max: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be a whole number from 1 to ${max}`);
  return value;
};
const COUNT = whole('NOTIFY_COUNT', 100, 10_000);
const RECIPIENTS = whole('NOTIFY_RECIPIENTS', 10, 1_000);
const TIMEOUT_S = whole('NOTIFY_TIMEOUT_S', 3600, 86_400);
const FORMAT = process.env.NOTIFY_FORMAT ?? 'png';
if (FORMAT !== 'png' && FORMAT !== 'pdf') throw new Error('NOTIFY_FORMAT must be png or pdf');
const WRITE = !process.argv.includes('--no-write');
const POLL_MS = 2_000;
const KEY = `sk-${'n'.repeat(40)}`;

if (!process.argv.includes('--no-build')) execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const log = (line: string) => process.stderr.write(`${line}\n`);
const loadBefore = uptime();

const smtp = await startSmtpStandIn();
const slack = await startSlackStandIn({ channels: [CHANNEL] });
const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-notify-'));
const server = await spawnServer(join(ROOT, 'packages/server/dist/main.js'), {
  PLINTH_DATA_DIR: dataDir,
  PLINTH_BOOTSTRAP_API_KEY: KEY,
  PLINTH_LOG_LEVEL: 'warn',
  PLINTH_SQL_PORT: 'off',
  PLINTH_SMTP_URL: smtp.url,
  PLINTH_SLACK_API_URL: slack.url,
  // The stand-ins listen on loopback, which the egress policy refuses unless the operator allows it.
  PLINTH_EGRESS_ALLOW: '127.0.0.1',
  // PGlite in the data dir, whatever the shell says.
  DATABASE_URL: '',
});
const pid = server.child.pid!;
const api = apiClient(`http://127.0.0.1:${server.port}`, KEY);

/**
 * Messages the stand-ins received; parsed mails are dropped as they are counted, so the bench does
 * not hold a thousand images. Slack's files stay until the end: the stand-in finds an upload there
 * when its completeUploadExternal comes, and counts as shared only the completed ones.
 */
const received = { mail: 0, slack: 0, slackFiles: 0 };
const drain = () => {
  received.mail += smtp.messages.splice(0).length;
  received.slack += slack.messages.splice(0).length;
  received.slackFiles = slack.files.filter((file) => file.channel !== undefined).length;
};

try {
  const { deploymentId, dashboardId, publicId } = await demoDashboard(api);
  await api('PUT', '/api/v1/tenant-settings/slack-bot-token', { token: slack.token });
  const users = await internalUsers(api);
  const recipients = recipientsFor(RECIPIENTS, users);
  const base = `/api/v1/deployments/${deploymentId}/notifications`;

  // Created for a minute half a day away: none falls due while the rest are being made.
  const setupStarted = Date.now();
  const far = new Date(setupStarted + 12 * 3_600_000);
  const ids: number[] = [];
  for (let i = 0; i < COUNT; i++) {
    const created = await api<{ id: number }>('POST', base, {
      dashboardId,
      scheduleType: 'CUSTOM',
      customCron: `${far.getUTCMinutes()} ${far.getUTCHours()} * * *`,
      timezone: 'UTC',
      notificationFormat: FORMAT,
    });
    await api('POST', `${base}/${created.id}/recipients`, { recipients });
    ids.push(created.id);
  }
  const setupMs = Date.now() - setupStarted;
  log(`${COUNT} notifications of ${RECIPIENTS} recipients created in ${(setupMs / 1000).toFixed(1)} s`);

  // Moving them costs about half of making them (one call each, not two): the slot leaves that twice over.
  const slot = Math.ceil((Date.now() + Math.max(5_000, setupMs)) / 60_000) * 60_000;
  const at = new Date(slot);
  const cron = `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
  const moved: string[] = [];
  await eachLimited(ids, 4, async (id) => {
    const updated = await api<{ nextRunAt: string }>('PUT', `${base}/${id}`, { scheduleType: 'CUSTOM', customCron: cron, timezone: 'UTC' });
    moved.push(updated.nextRunAt);
  });
  if (moved.some((next) => next !== at.toISOString())) throw new Error(`not every notification is due at ${at.toISOString()}`);
  if (Date.now() >= slot - 500) throw new Error(`moving the notifications took past their slot ${at.toISOString()}: run it again`);
  log(`all due at ${at.toISOString()} (cron "${cron}" UTC); waiting ${((slot - Date.now()) / 1000).toFixed(0)} s for it`);

  await new Promise((resolve) => setTimeout(resolve, slot - Date.now()));
  const peakReset = resetPeak(pid);
  const rssAtSlot = rssMiB(pid, 'VmRSS');
  const cpuAtSlot = cpuSeconds(pid);
  const tree = sampleTree(pid);

  // Each notification's run of the slot, read until every run has ended (or the time is up).
  const latest = new Map<number, Run>();
  const open = new Set(ids);
  const deadline = slot + TIMEOUT_S * 1000;
  let doneAt: number | undefined;
  while (open.size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    for (const id of [...open]) {
      const { items } = await api<{ items: Run[] }>('GET', `${base}/${id}/runs?first=5`);
      const run = items.find((r) => r.dueAt === at.toISOString());
      if (!run) continue;
      latest.set(id, run);
      if (run.status !== 'running') open.delete(id);
    }
    drain();
    if (open.size === 0) doneAt = Date.now();
    const sent = [...latest.values()].reduce((n, r) => n + r.deliveries.filter((d) => d.status === 'sent').length, 0);
    log(
      `+${((Date.now() - slot) / 1000).toFixed(0)} s: ${COUNT - open.size}/${COUNT} runs ended, ${sent}/${COUNT * RECIPIENTS} deliveries sent`,
    );
  }
  const memory = tree.stop();
  const peakRss = rssMiB(pid, 'VmHWM');
  const cpu = cpuSeconds(pid) - cpuAtSlot;
  drain();

  const section = summarise({
    count: COUNT,
    recipients: RECIPIENTS,
    format: FORMAT,
    timeoutS: TIMEOUT_S,
    slot,
    doneAt,
    runs: [...latest.values()],
    received,
    memory: { rssAtSlot, peakRss, peakReset, treeMiB: memory.treeMiB, chromiumProcesses: memory.processes, cpuSeconds: cpu },
    machine: machine(),
    load: { before: loadBefore, after: uptime() },
    publicId,
  });
  process.stdout.write(section);
  if (WRITE) appendFileSync(join(ROOT, 'bench/RESULTS.md'), section);
} finally {
  // A server that died on its own has no exit left to wait for.
  if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
  await smtp.close();
  await slack.close();
  rmSync(dataDir, { recursive: true, force: true });
}
