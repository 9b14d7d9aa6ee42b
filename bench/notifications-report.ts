/** The notifications benchmark's figures, from the runs the API answered, as a section of bench/RESULTS.md. */

export interface Delivery {
  recipient: { type: 'USER' | 'EMBED_USER' | 'SLACK' };
  status: 'pending' | 'retrying' | 'sent' | 'failed' | 'cancelled';
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
}

export interface Run {
  dueAt: string;
  createdAt: string;
  status: string;
  renderings: number;
  deliveries: Delivery[];
}

export interface Outcome {
  count: number;
  recipients: number;
  format: string;
  timeoutS: number;
  slot: number;
  /** When the poll first saw every run ended; undefined when the time ran out first. */
  doneAt: number | undefined;
  runs: Run[];
  received: { mail: number; slack: number; slackFiles: number };
  memory: {
    rssAtSlot: number;
    peakRss: number;
    /** Whether the kernel took the reset of VmHWM at the slot (else the peak counts the setup too). */
    peakReset: boolean;
    treeMiB: number;
    chromiumProcesses: number;
    cpuSeconds: number;
  };
  machine: string;
  load: { before: string; after: string };
  publicId: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (value: number) => `${value.toFixed(0)} MiB`;

export function summarise(o: Outcome): string {
  const deliveries = o.runs.flatMap((r) => r.deliveries);
  const expected = o.count * o.recipients;
  const by = (status: Delivery['status']) => deliveries.filter((d) => d.status === status).length;
  const sentTimes = deliveries.filter((d) => d.sentAt).map((d) => Date.parse(d.sentAt!) - o.slot);
  const started = o.runs.map((r) => Date.parse(r.createdAt) - o.slot);
  const renderings = o.runs.reduce((n, r) => n + r.renderings, 0);
  const first = Math.min(...sentTimes);
  const last = Math.max(...sentTimes);
  const perType = (type: Delivery['recipient']['type']) => deliveries.filter((d) => d.recipient.type === type).length;
  const errors = new Map<string, number>();
  for (const d of deliveries) if (d.lastError) errors.set(d.lastError, (errors.get(d.lastError) ?? 0) + 1);
  const complete = o.doneAt !== undefined && o.runs.length === o.count;
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');

  const rows: [string, string][] = [
    [
      'Notifications × recipients = deliveries',
      `${o.count} × ${o.recipients} = ${expected} (Slack ${perType('SLACK')}, internal users ${perType('USER')}, embed users ${perType('EMBED_USER')})`,
    ],
    ['All due at (the slot)', `${new Date(o.slot).toISOString().slice(11, 19)} UTC`],
    [
      'Runs started by the scheduler',
      o.runs.length ? `${o.runs.length}: first +${seconds(Math.min(...started))}, last +${seconds(Math.max(...started))}` : 'none',
    ],
    ['First delivery sent', sentTimes.length ? `+${seconds(first)}` : 'none'],
    [
      '**All delivered** (last delivery sent)',
      complete && by('sent') === expected ? `**+${seconds(last)}**` : `not all: ${by('sent')} of ${expected} sent`,
    ],
    ['Every run ended, as the poll saw it', o.doneAt !== undefined ? `+${seconds(o.doneAt - o.slot)}` : `not within ${o.timeoutS} s`],
    [
      'Deliveries sent / failed / cancelled / still open',
      `${by('sent')} / ${by('failed')} / ${by('cancelled')} / ${by('pending') + by('retrying') + (expected - deliveries.length)}`,
    ],
    ['Deliveries that needed more than one attempt', String(deliveries.filter((d) => d.attempts > 1).length)],
    [
      '**Renderings made**',
      `**${renderings}** for ${deliveries.length} deliveries (${(renderings / Math.max(1, o.runs.length)).toFixed(1)} per run)`,
    ],
    [
      'Throughput, first to last delivery',
      sentTimes.length > 1 && last > first
        ? `${((by('sent') / (last - first)) * 1000).toFixed(1)} deliveries/s, ${((renderings / (last - first)) * 1000).toFixed(2)} renderings/s`
        : 'n/a',
    ],
    [
      'Received by the stand-ins: mails / Slack messages / Slack files shared',
      `${o.received.mail} / ${o.received.slack} / ${o.received.slackFiles}`,
    ],
    [
      '**Peak RSS of the server process** (VmHWM' +
        (o.memory.peakReset ? ', reset at the slot)' : ', since its start: the reset was refused)'),
      `**${mib(o.memory.peakRss)}** (${mib(o.memory.rssAtSlot)} at the slot)`,
    ],
    [
      'Peak PSS of the server and its Chromium (sampled every 500 ms)',
      `${mib(o.memory.treeMiB)} (${o.memory.chromiumProcesses} processes under the server at most)`,
    ],
    ['CPU of the server process, slot to end', `${o.memory.cpuSeconds.toFixed(1)} s (Chromium's not counted)`],
  ];
  const errorLines = [...errors].map(([message, n]) => `- ${n} × ${message.replace(/\s+/g, ' ').slice(0, 300)}`).join('\n');

  return `
## Scheduled notifications in a burst (${when} UTC)

Command: \`npm run bench:notifications\` (NOTIFY_COUNT=${o.count}, NOTIFY_RECIPIENTS=${o.recipients}, NOTIFY_FORMAT=${o.format}). Machine: ${o.machine}. Load: \`${o.load.before}\` before, \`${o.load.after}\` after.

Method: the built server (\`packages/server/dist/main.js\`), one process on a fresh PGlite data dir, as \`npm start\` runs it: it serves the API, ticks the schedules, renders in its own headless Chromium (the \`rendering\` queue, 1 at a time) and delivers (the \`delivery\` queue, 4 at a time); mail goes to a local SMTP server (\`smtp-server\`), Slack's Web API to a local stand-in, both in the benchmark's process. The dashboard is the demo's "Sales overview" (${o.publicId}). Each notification has the same recipients: one Slack channel (rendered as the notification's creator), internal users by e-mail (two admins and a member whose \`country\` is Germany) and embed users by e-mail in three policy sets (\`country\` and \`segment\`: USA/consumer, France/corporate, UK/home_office); a run makes one rendering per set of recipients who see the same rows. The notifications are created for a minute far off, then moved together to one slot (a CUSTOM cron naming its minute and hour, UTC). Times are from the slot to the server's own records (each run's \`createdAt\`, each delivery's \`sentAt\`), read through \`GET …/notifications/{id}/runs\`, polled every 2 s.

| Figure | Value |
| --- | --- |
${rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}

${errors.size ? `Errors recorded on deliveries:\n${errorLines}` : 'No delivery recorded an error.'}
`;
}
