import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/** What the notifications benchmark does to the server over its API, and how it watches its memory. */

export type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export function apiClient(base: string, apiKey: string): Api {
  return async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Api-Key ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };
}

/** Asks `probe` every 200 ms until it answers something, for at most `ms`. */
export async function waitFor<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Workbook {
  publishedDashboard: { id: number; publicId: string; allowEmbed: boolean } | null;
}

/** The demo deployment and its published dashboard, open to embedding, once the first start has made them. */
export async function demoDashboard(api: Api): Promise<{ deploymentId: number; dashboardId: number; publicId: string }> {
  return waitFor('the demo dashboard', 180_000, async () => {
    const { items } = await api<{ items: { id: number; name: string }[] }>('GET', '/api/v1/deployments');
    const demo = items.find((d) => d.name === 'Demo');
    if (!demo) return undefined;
    const workbooks = await api<{ items: Workbook[] }>('GET', `/api/v1/deployments/${demo.id}/workbooks`);
    const published = workbooks.items.find((w) => w.publishedDashboard?.allowEmbed)?.publishedDashboard;
    return published ? { deploymentId: demo.id, dashboardId: published.id, publicId: published.publicId } : undefined;
  });
}

export const TENANT = 'customers';
export const CHANNEL = 'C0BENCH';
/**
 * The policy sets of the embed recipients: the demo's view shows each caller the rows of their
 * `country` attribute and `segment` security context, so each set is one rendering per run.
 */
const POLICIES = [
  { country: 'USA', segment: 'consumer' },
  { country: 'France', segment: 'corporate' },
  { country: 'UK', segment: 'home_office' },
];

/**
 * The account's people who receive notifications by e-mail: the admin the bootstrap key belongs
 * to, another admin, and a member who sees one country. Answers their user ids.
 */
export async function internalUsers(api: Api): Promise<number[]> {
  const me = await api<{ id: number }>('GET', '/api/v1/users/me');
  const admin = await api<{ id: number }>('POST', '/api/v1/users', { email: 'analyst@bench.example.com', role: 'admin' });
  const member = await api<{ id: number }>('POST', '/api/v1/users', { email: 'manager@bench.example.com', role: 'member' });
  await api('PUT', `/api/v1/users/${member.id}/attribute-values`, { values: [{ name: 'country', value: 'Germany' }] });
  return [me.id, admin.id, member.id];
}

/**
 * `count` recipients: the first the Slack channel, then every third an internal user (e-mail),
 * the rest embed users (e-mail) cycling through the policy sets. The same people are on every
 * notification, as a team's subscriptions are.
 */
export function recipientsFor(count: number, users: number[]): unknown[] {
  const recipients: unknown[] = [];
  let embedded = 0;
  for (let i = 0; i < count; i++) {
    if (i === 0) recipients.push({ type: 'SLACK', channelId: CHANNEL, channelName: 'bench' });
    else if (i % 3 === 1) recipients.push({ type: 'USER', userId: users[Math.floor(i / 3) % users.length] });
    else {
      const policy = POLICIES[embedded % POLICIES.length]!;
      recipients.push({
        type: 'EMBED_USER',
        embedTenantName: TENANT,
        externalId: `customer-${embedded++}@bench.example.com`,
        userAttributes: [{ name: 'country', value: policy.country }],
        securityContext: { segment: policy.segment },
      });
    }
  }
  return recipients;
}

/** Runs `work` on every item, `parallel` at a time. */
export async function eachLimited<T>(items: T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, lane));
}

const MiB = 1024;
const kiB = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);

/** Every process below `root` (the server's Chromium and its helpers), found by parent id. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function pss(pid: number): number {
  try {
    return kiB(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss');
  } catch {
    return 0;
  }
}

/** The server's resident set in MiB: now, or its peak (VmHWM). */
export const rssMiB = (pid: number, field: 'VmRSS' | 'VmHWM') => kiB(readFileSync(`/proc/${pid}/status`, 'utf8'), field) / MiB;

/** Starts the server's peak resident set afresh (`clear_refs` 5), so setup's peak is not counted; false where the kernel refuses. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples, every `everyMs`, the proportional set (PSS: shared pages split between their
 * processes, so the sum is what the tree really holds) of the server and every process under it.
 */
export function sampleTree(root: number, everyMs = 500) {
  const peak = { treeMiB: 0, processes: 0 };
  const sample = () => {
    const below = descendants(root);
    const total = [root, ...below].reduce((sum, pid) => sum + pss(pid), 0) / MiB;
    peak.treeMiB = Math.max(peak.treeMiB, total);
    peak.processes = Math.max(peak.processes, below.length);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Seconds of CPU the process has used (user + system), from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name; clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
