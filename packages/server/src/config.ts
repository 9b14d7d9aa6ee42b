import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deliveryConfig, type DeliveryConfig } from './config-delivery.js';
import { allowEntryProblem, type EgressSettings } from './egress/settings.js';
import { parseQueueConcurrency, type QueueConcurrency } from './jobs/queues.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Accounts are addressed as `{tenant}.{baseDomain}` when set. */
  baseDomain: string | undefined;
  /** The account created on an empty store, and the one every unmatched Host reaches. */
  defaultTenant: string;
  bootstrapApiKey: string | undefined;
  maxExternalUsers: number;
  /** Key for secrets stored encrypted; generated and kept in the store when not set. */
  secretKey: string | undefined;
  logLevel: string;
  /** `{base_url}` of generated links (PLINTH_PUBLIC_URL); the listening address when unset. */
  publicUrl: string | undefined;
  /** Fastify's `trustProxy`: whose X-Forwarded-For names the client that rate limits count. */
  trustProxy: boolean | number | string[];
  /** First step of the sign-in delays, doubled at each further failure (PLINTH_SIGNIN_DELAY_MS). */
  signInDelayMs: number;
  /** Pause between polls of the job queue when it had nothing due (PLINTH_JOB_POLL_MS). */
  jobPollMs: number;
  /** Jobs of each named queue a process runs at once (PLINTH_QUEUE_CONCURRENCY, `builds=2,rendering=1`). */
  queueConcurrency: QueueConcurrency;
  /** Days telemetry events are kept before the retention sweep deletes them (PLINTH_TELEMETRY_RETENTION_DAYS). */
  telemetryRetentionDays: number;
  /** Engine versions each release channel offers, newest first (PLINTH_RELEASE_CHANNELS, JSON). */
  releaseChannels: Record<string, string[]>;
  /** Image repository the versions resolve to, `{repo}:v{version}` (PLINTH_IMAGE_REPO). */
  imageRepo: string;
  /** Regions a deployment may be created in, comma-separated (PLINTH_REGIONS). */
  regions: string[];
  /** How long a data API query may run before the answer is `Continue wait` (PLINTH_CONTINUE_WAIT_MS). */
  continueWaitMs: number;
  /** How long a data API result is reused for the same build, query and security context (PLINTH_RESULT_CACHE_TTL_MS). */
  resultCacheTtlMs: number;
  /** The largest `limit` a data API query may ask for (PLINTH_DATA_API_MAX_LIMIT, at most Cube's 50,000). */
  dataApiMaxLimit: number;
  /** Redis shared by every process serving the data API: result cache and in-flight queries (PLINTH_REDIS_URL). */
  redisUrl: string | undefined;
  /** Keeps installations (or test runs) sharing one Redis apart: keys start `plinth:dataapi:{namespace}:` (PLINTH_REDIS_NAMESPACE). */
  redisNamespace: string | undefined;
  /** Whether the start that creates the first account also creates the demo deployment (PLINTH_DEMO). */
  demo: boolean;
  /** Longest a connection to a deployment's PostgreSQL warehouse may take to open (PLINTH_WAREHOUSE_CONNECT_TIMEOUT_MS). */
  warehouseConnectTimeoutMs: number;
  /** The GitHub App the server connects repositories through (PLINTH_GITHUB_*); see githubConfig below. */
  github: GithubAppConfig;
  /** How long a stop waits for requests in flight before it cuts their connections (PLINTH_SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** Threads at most for CPU-bound work such as compiling models (PLINTH_WORKER_THREADS); each starts when needed and ends when idle. */
  workerThreads: number;
  /** Internal hosts and local repositories tenants may reach (PLINTH_EGRESS_ALLOW, PLINTH_ALLOW_LOCAL_REPOSITORIES). */
  egress: EgressSettings;
  /** E-mail and Slack targets and the renderer's way in (PLINTH_SMTP_URL, PLINTH_SLACK_API_URL, PLINTH_RENDER_URL). */
  delivery: DeliveryConfig;
  /** The SQL API's PostgreSQL-wire listener (PLINTH_SQL_PORT, `off` for none; PLINTH_SQL_TLS_CERT and _KEY for TLS). */
  sql: SqlListenerConfig;
}

export interface SqlListenerConfig {
  /** The port, 0 for any free one; null when the listener is off. */
  port: number | null;
  /** PEM certificate and key, read at start: when set, clients may use TLS. */
  tls: { cert: string; key: string } | undefined;
  /** Connections without TLS are refused (PLINTH_SQL_TLS_REQUIRED); else both are served, as PostgreSQL's `host` lines do. */
  tlsRequired: boolean;
}

/** A GitHub App's credentials; GitHub Enterprise Server works through `apiUrl` (`https://host/api/v3`). */
export interface GithubAppConfig {
  /** REST API base, no trailing slash (PLINTH_GITHUB_API_URL, default https://api.github.com). */
  apiUrl: string;
  /** PLINTH_GITHUB_APP_ID; undefined: GitHub is not configured. */
  appId: string | undefined;
  /** The App's private key, PEM (PLINTH_GITHUB_APP_PRIVATE_KEY, or the file PLINTH_GITHUB_APP_PRIVATE_KEY_FILE). */
  privateKey: string | undefined;
  /** Secret of the App's webhook (PLINTH_GITHUB_WEBHOOK_SECRET); undefined: webhooks are refused. */
  webhookSecret: string | undefined;
}

/** A setting that cannot be used; main prints its message as the one line the server dies with. */
export class ConfigError extends Error {}

export const TENANT_NAME = /^[a-z][a-z0-9-]{1,61}[a-z0-9]$/;
/**
 * Worker threads a process uses at most (workers/): two let a build compile while the data API
 * compiles a new build's model, as on the two cores of the smallest machine the server targets.
 */
export const DEFAULT_WORKER_THREADS = 2;

/** `<slug>-<id>.<PLINTH_BASE_DOMAIN>` is a deployment's host, so no new account may bear a name of that form. */
export const DEPLOYMENT_HOST_LIKE = /-[0-9]+$/;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    fail('DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
  }
  const baseDomain = optional(env, 'PLINTH_BASE_DOMAIN')?.toLowerCase();
  if (baseDomain && !/^[a-z0-9.-]+(:\d+)?$/.test(baseDomain)) {
    fail('PLINTH_BASE_DOMAIN', `"${baseDomain}" is not a host name`);
  }
  const defaultTenant = optional(env, 'PLINTH_TENANT') ?? 'demo';
  if (!TENANT_NAME.test(defaultTenant)) {
    fail('PLINTH_TENANT', 'must be 3 to 63 characters of a-z, 0-9 and -, starting with a letter');
  }
  if (baseDomain && DEPLOYMENT_HOST_LIKE.test(defaultTenant)) {
    fail('PLINTH_TENANT', `"${defaultTenant}" ends in - and digits, which with PLINTH_BASE_DOMAIN names a deployment's host`);
  }
  const bootstrapApiKey = optional(env, 'PLINTH_BOOTSTRAP_API_KEY');
  if (bootstrapApiKey && !/^sk-[A-Za-z0-9]{20,}$/.test(bootstrapApiKey)) {
    fail('PLINTH_BOOTSTRAP_API_KEY', 'must start with "sk-" followed by at least 20 letters or digits');
  }
  const secretKey = optional(env, 'PLINTH_SECRET_KEY');
  if (secretKey && secretKey.length < 32) fail('PLINTH_SECRET_KEY', 'must be at least 32 characters');
  const logLevel = optional(env, 'PLINTH_LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) fail('PLINTH_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);

  const publicUrl = optional(env, 'PLINTH_PUBLIC_URL');
  if (publicUrl && !isBaseUrl(publicUrl)) {
    fail('PLINTH_PUBLIC_URL', `"${publicUrl}" is not an http:// or https:// URL without a path, query or fragment`);
  }

  const redisUrl = optional(env, 'PLINTH_REDIS_URL');
  if (redisUrl && !isRedisUrl(redisUrl)) fail('PLINTH_REDIS_URL', `"${redactUrl(redisUrl)}" is not a redis:// or rediss:// URL`);
  const redisNamespace = optional(env, 'PLINTH_REDIS_NAMESPACE');
  if (redisNamespace && !/^[A-Za-z0-9_-]{1,64}$/.test(redisNamespace)) {
    fail('PLINTH_REDIS_NAMESPACE', 'must be 1 to 64 letters, digits, _ or -');
  }

  return {
    port: integer(env, 'PORT', 4000, 0, 65535),
    host: optional(env, 'HOST') ?? '127.0.0.1',
    dataDir: resolve(optional(env, 'PLINTH_DATA_DIR') ?? './.plinth'),
    databaseUrl,
    baseDomain,
    defaultTenant,
    bootstrapApiKey,
    maxExternalUsers: integer(env, 'PLINTH_MAX_EXTERNAL_USERS', 10_000, 1, 100_000_000),
    secretKey,
    logLevel,
    publicUrl: publicUrl && new URL(publicUrl).origin,
    trustProxy: trustProxy(optional(env, 'PLINTH_TRUST_PROXY')),
    signInDelayMs: integer(env, 'PLINTH_SIGNIN_DELAY_MS', 1000, 1, 3_600_000),
    jobPollMs: integer(env, 'PLINTH_JOB_POLL_MS', 2000, 10, 3_600_000),
    queueConcurrency: queueConcurrency(optional(env, 'PLINTH_QUEUE_CONCURRENCY')),
    telemetryRetentionDays: integer(env, 'PLINTH_TELEMETRY_RETENTION_DAYS', 90, 1, 36_500),
    releaseChannels: releaseChannels(optional(env, 'PLINTH_RELEASE_CHANNELS')),
    imageRepo: matching(env, 'PLINTH_IMAGE_REPO', 'plinth/engine', /^[a-z0-9][a-z0-9._/:-]*[a-z0-9]$/, 'is not an image repository'),
    regions: regions(optional(env, 'PLINTH_REGIONS')),
    continueWaitMs: integer(env, 'PLINTH_CONTINUE_WAIT_MS', 5000, 1, 3_600_000),
    resultCacheTtlMs: integer(env, 'PLINTH_RESULT_CACHE_TTL_MS', 600_000, 0, 86_400_000),
    dataApiMaxLimit: integer(env, 'PLINTH_DATA_API_MAX_LIMIT', 10_000, 1, 50_000),
    redisUrl,
    redisNamespace,
    demo: flag(env, 'PLINTH_DEMO', true),
    warehouseConnectTimeoutMs: integer(env, 'PLINTH_WAREHOUSE_CONNECT_TIMEOUT_MS', 10_000, 100, 600_000),
    github: githubConfig(env),
    shutdownGraceMs: integer(env, 'PLINTH_SHUTDOWN_GRACE_MS', 5000, 0, 600_000),
    workerThreads: integer(env, 'PLINTH_WORKER_THREADS', DEFAULT_WORKER_THREADS, 1, 64),
    egress: {
      allow: egressAllow(optional(env, 'PLINTH_EGRESS_ALLOW')),
      allowLocalRepositories: flag(env, 'PLINTH_ALLOW_LOCAL_REPOSITORIES', false),
    },
    delivery: deliveryConfig(env, fail),
    sql: sqlListenerConfig(env),
  };
}

/** The SQL listener: on port 15432 unless PLINTH_SQL_PORT says another or `off`; TLS from two PEM files, required or offered. */
function sqlListenerConfig(env: NodeJS.ProcessEnv): SqlListenerConfig {
  const raw = optional(env, 'PLINTH_SQL_PORT')?.toLowerCase();
  const port = raw === 'off' || raw === 'false' ? null : integer(env, 'PLINTH_SQL_PORT', 15432, 0, 65535);
  const certFile = optional(env, 'PLINTH_SQL_TLS_CERT');
  const keyFile = optional(env, 'PLINTH_SQL_TLS_KEY');
  if (!certFile !== !keyFile)
    fail(certFile ? 'PLINTH_SQL_TLS_KEY' : 'PLINTH_SQL_TLS_CERT', 'is needed too: TLS takes a certificate and its key');
  const tlsRequired = flag(env, 'PLINTH_SQL_TLS_REQUIRED', false);
  if (tlsRequired && !certFile)
    fail('PLINTH_SQL_TLS_REQUIRED', 'needs PLINTH_SQL_TLS_CERT and PLINTH_SQL_TLS_KEY: TLS cannot be required without them');
  if (!certFile || !keyFile) return { port, tls: undefined, tlsRequired };
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      return fail(name, `cannot read ${file}: ${(error as Error).message}`);
    }
  };
  return { port, tls: { cert: read('PLINTH_SQL_TLS_CERT', certFile), key: read('PLINTH_SQL_TLS_KEY', keyFile) }, tlsRequired };
}

/**
 * The GitHub App settings. An App ID without a key (or the reverse) is a half-done setup worth
 * stopping for; neither set leaves GitHub unconfigured, which its operations then say by name.
 */
function githubConfig(env: NodeJS.ProcessEnv): GithubAppConfig {
  const apiUrl = (optional(env, 'PLINTH_GITHUB_API_URL') ?? 'https://api.github.com').replace(/\/+$/, '');
  let parsed: URL | undefined;
  try {
    parsed = new URL(apiUrl);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.search || parsed.hash || parsed.username) {
    fail('PLINTH_GITHUB_API_URL', `"${redactUrl(apiUrl)}" is not an http:// or https:// URL (e.g. https://github.example.com/api/v3)`);
  }
  const appId = optional(env, 'PLINTH_GITHUB_APP_ID');
  if (appId && !/^[0-9]{1,20}$/.test(appId) && !/^Iv[0-9A-Za-z.]{1,60}$/.test(appId)) {
    fail('PLINTH_GITHUB_APP_ID', `"${appId}" is not an App ID (a number, or a client ID starting with Iv)`);
  }
  const keyText = optional(env, 'PLINTH_GITHUB_APP_PRIVATE_KEY');
  const keyFile = optional(env, 'PLINTH_GITHUB_APP_PRIVATE_KEY_FILE');
  if (keyText && keyFile) fail('PLINTH_GITHUB_APP_PRIVATE_KEY_FILE', 'is set together with PLINTH_GITHUB_APP_PRIVATE_KEY; set one');
  let privateKey = keyText?.replace(/\\n/g, '\n');
  if (keyFile) {
    try {
      privateKey = readFileSync(keyFile, 'utf8');
    } catch (error) {
      fail('PLINTH_GITHUB_APP_PRIVATE_KEY_FILE', `cannot read ${keyFile}: ${(error as Error).message}`);
    }
  }
  const keyName = keyFile ? 'PLINTH_GITHUB_APP_PRIVATE_KEY_FILE' : 'PLINTH_GITHUB_APP_PRIVATE_KEY';
  if (privateKey) {
    try {
      createPrivateKey(privateKey);
    } catch {
      fail(keyName, 'is not a PEM private key (the .pem file GitHub generates for the App)');
    }
  }
  if (appId && !privateKey)
    fail('PLINTH_GITHUB_APP_PRIVATE_KEY', 'must be set (or PLINTH_GITHUB_APP_PRIVATE_KEY_FILE) when PLINTH_GITHUB_APP_ID is');
  if (privateKey && !appId) fail('PLINTH_GITHUB_APP_ID', `must be set when ${keyName} is`);
  return { apiUrl, appId, privateKey, webhookSecret: optional(env, 'PLINTH_GITHUB_WEBHOOK_SECRET') };
}

function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A URL as an error may show it: a password in it never reaches a log line. */
function redactUrl(value: string): string {
  return value.replace(/\/\/[^@/]*@/, '//***@');
}

function isBaseUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.pathname.replace(/\/+$/, '') === '' &&
      !url.search &&
      !url.hash &&
      !url.username &&
      !url.password &&
      !value.includes('?') &&
      !value.includes('#')
    );
  } catch {
    return false;
  }
}

/** `true`, a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges. */
function trustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (list.some((part) => !/^[0-9A-Fa-f:.]+(\/\d{1,3})?$/.test(part))) {
    fail('PLINTH_TRUST_PROXY', 'must be true, false, a number of hops or a comma-separated list of addresses or CIDR ranges');
  }
  return list;
}

const VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
const DEFAULT_CHANNELS = { latest: ['1.3.0', '1.2.0'], release: ['1.2.0'] };

/** A JSON object of channel name → versions (newest first, at least one each), e.g. `{"latest": ["1.3.0"]}`. */
function releaseChannels(raw: string | undefined): Record<string, string[]> {
  if (raw === undefined) return DEFAULT_CHANNELS;
  const problem = 'must be a JSON object of channel names to non-empty lists of versions like "1.2.0", newest first';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    fail('PLINTH_RELEASE_CHANNELS', problem);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || Object.keys(parsed).length === 0) {
    fail('PLINTH_RELEASE_CHANNELS', problem);
  }
  for (const [name, versions] of Object.entries(parsed)) {
    const valid = Array.isArray(versions) && versions.length > 0 && versions.every((v) => typeof v === 'string' && VERSION.test(v));
    if (!/^[a-z][a-z0-9-]{0,30}$/.test(name) || !valid) fail('PLINTH_RELEASE_CHANNELS', `${problem} (channel "${name}")`);
  }
  return parsed as Record<string, string[]>;
}

/** Comma-separated hosts (`git.internal`, `*.corp.example`), addresses and CIDR ranges. */
function egressAllow(raw: string | undefined): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const entry of list) {
    const problem = allowEntryProblem(entry);
    if (problem) fail('PLINTH_EGRESS_ALLOW', `${problem}; give a comma-separated list of hosts, addresses and CIDR ranges`);
  }
  return list;
}

function regions(raw: string | undefined): string[] {
  if (raw === undefined) return ['local'];
  const list = raw.split(',').map((part) => part.trim());
  if (list.some((part) => !/^[a-z0-9][a-z0-9-]{0,62}$/.test(part))) {
    fail('PLINTH_REGIONS', 'must be a comma-separated list of region names of a-z, 0-9 and -');
  }
  return [...new Set(list)];
}

function queueConcurrency(raw: string | undefined): QueueConcurrency {
  const parsed = parseQueueConcurrency(raw);
  if ('problem' in parsed) fail('PLINTH_QUEUE_CONCURRENCY', parsed.problem as string);
  return parsed;
}

function matching(env: NodeJS.ProcessEnv, name: string, fallback: string, pattern: RegExp, problem: string): string {
  const raw = optional(env, name) ?? fallback;
  if (!pattern.test(raw)) fail(name, `"${raw}" ${problem}`);
  return raw;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** `1`/`true` or `0`/`false`; anything else is a mistake worth stopping for. */
function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = optional(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  fail(name, `"${raw}" is not one of 1, true, 0, false`);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) fail(name, `"${raw}" is not a whole number`);
  const value = Number(raw);
  if (value < min || value > max) fail(name, `${value} is outside ${min}..${max}`);
  return value;
}

function fail(name: string, problem: string): never {
  throw new ConfigError(`Invalid setting ${name}: ${problem}`);
}
