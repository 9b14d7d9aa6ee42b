import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration from the environment (issue 2 point 2)', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      baseDomain: undefined,
      defaultTenant: 'demo',
      bootstrapApiKey: undefined,
      maxExternalUsers: 10_000,
    });
    expect(config.dataDir).toMatch(/\.plinth$/);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      PLINTH_DATA_DIR: '/var/lib/plinth',
      DATABASE_URL: 'postgres://u@db:5432/plinth',
      PLINTH_BASE_DOMAIN: 'Analytics.Example.com',
      PLINTH_TENANT: 'acme',
      PLINTH_BOOTSTRAP_API_KEY: 'sk-abcdefghijklmnopqrstuvwxyz012345',
      PLINTH_MAX_EXTERNAL_USERS: '25',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/plinth',
      databaseUrl: 'postgres://u@db:5432/plinth',
      baseDomain: 'analytics.example.com',
      defaultTenant: 'acme',
      bootstrapApiKey: 'sk-abcdefghijklmnopqrstuvwxyz012345',
      maxExternalUsers: 25,
    });
  });

  it.each([
    ['PORT', 'eighty', /Invalid setting PORT: "eighty" is not a whole number/],
    ['PORT', '70000', /Invalid setting PORT: 70000 is outside 0\.\.65535/],
    ['DATABASE_URL', 'mysql://x', /Invalid setting DATABASE_URL: must be a postgres/],
    ['PLINTH_TENANT', 'Acme Corp', /Invalid setting PLINTH_TENANT/],
    ['PLINTH_BOOTSTRAP_API_KEY', 'abc123', /Invalid setting PLINTH_BOOTSTRAP_API_KEY: must start with "sk-"/],
    ['PLINTH_BOOTSTRAP_API_KEY', 'sk-short', /Invalid setting PLINTH_BOOTSTRAP_API_KEY/],
    ['PLINTH_MAX_EXTERNAL_USERS', '0', /Invalid setting PLINTH_MAX_EXTERNAL_USERS: 0 is outside/],
    ['PLINTH_MAX_EXTERNAL_USERS', '-5', /Invalid setting PLINTH_MAX_EXTERNAL_USERS/],
    ['PLINTH_BASE_DOMAIN', 'exa mple.com', /Invalid setting PLINTH_BASE_DOMAIN/],
    ['PLINTH_SECRET_KEY', 'too-short', /Invalid setting PLINTH_SECRET_KEY/],
    ['PLINTH_LOG_LEVEL', 'chatty', /Invalid setting PLINTH_LOG_LEVEL/],
    ['PLINTH_PUBLIC_URL', 'plinth.example.com', /Invalid setting PLINTH_PUBLIC_URL/],
    ['PLINTH_PUBLIC_URL', 'https://plinth.example.com/app', /Invalid setting PLINTH_PUBLIC_URL/],
    ['PLINTH_TRUST_PROXY', 'yes please', /Invalid setting PLINTH_TRUST_PROXY/],
    ['PLINTH_SIGNIN_DELAY_MS', '0', /Invalid setting PLINTH_SIGNIN_DELAY_MS/],
    ['PLINTH_JOB_POLL_MS', '5', /Invalid setting PLINTH_JOB_POLL_MS/],
    ['PLINTH_QUEUE_CONCURRENCY', 'buils=2', /Invalid setting PLINTH_QUEUE_CONCURRENCY: "buils" is not a queue; the queues are builds, /],
    ['PLINTH_QUEUE_CONCURRENCY', 'builds', /Invalid setting PLINTH_QUEUE_CONCURRENCY: "builds" is not queue=number/],
    ['PLINTH_QUEUE_CONCURRENCY', 'builds=0', /the concurrency of "builds" must be a whole number from 1 to 64, not "0"/],
    ['PLINTH_QUEUE_CONCURRENCY', 'builds=two', /the concurrency of "builds" must be a whole number from 1 to 64, not "two"/],
    ['PLINTH_QUEUE_CONCURRENCY', 'builds=1,builds=2', /queue "builds" is given twice/],
    [
      'PLINTH_REDIS_URL',
      'http://127.0.0.1:6379',
      /Invalid setting PLINTH_REDIS_URL: "http:\/\/127\.0\.0\.1:6379" is not a redis:\/\/ or rediss:\/\/ URL/,
    ],
    ['PLINTH_REDIS_URL', '127.0.0.1:6379', /Invalid setting PLINTH_REDIS_URL/],
    ['PLINTH_REDIS_URL', 'redis://', /Invalid setting PLINTH_REDIS_URL/],
    ['PLINTH_REDIS_NAMESPACE', 'a b', /Invalid setting PLINTH_REDIS_NAMESPACE/],
    ['PLINTH_TELEMETRY_RETENTION_DAYS', '0', /Invalid setting PLINTH_TELEMETRY_RETENTION_DAYS/],
    ['PLINTH_DEMO', 'maybe', /Invalid setting PLINTH_DEMO: "maybe" is not one of 1, true, 0, false/],
    [
      'PLINTH_EGRESS_ALLOW',
      'git.internal, http://10.0.0.1',
      /^Invalid setting PLINTH_EGRESS_ALLOW: "http:\/\/10\.0\.0\.1" is not a host, an address or a CIDR range; give a comma-separated/,
    ],
    ['PLINTH_EGRESS_ALLOW', '10.0.0.0/33', /Invalid setting PLINTH_EGRESS_ALLOW: "10\.0\.0\.0\/33" is not a CIDR range/],
    ['PLINTH_ALLOW_LOCAL_REPOSITORIES', 'yes', /Invalid setting PLINTH_ALLOW_LOCAL_REPOSITORIES: "yes" is not one of/],
  ])('a bad %s (%j) fails with one line naming the setting', (name, value, message) => {
    let thrown: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain('\n');
  });

  it('gives each named queue its default concurrency unless PLINTH_QUEUE_CONCURRENCY sets it', () => {
    expect(loadConfig({}).queueConcurrency).toEqual({ builds: 2, rollups: 1, rendering: 1, delivery: 4, imports: 2, maintenance: 2 });
    expect(loadConfig({ PLINTH_QUEUE_CONCURRENCY: 'builds=3, rendering = 2' }).queueConcurrency).toMatchObject({
      builds: 3,
      rendering: 2,
      delivery: 4,
    });
  });

  it('a PLINTH_TENANT shaped like a deployment host (name-<digits>) is refused only with a base domain', () => {
    expect(() => loadConfig({ PLINTH_TENANT: 'team-2', PLINTH_BASE_DOMAIN: 'plinth.example.com' })).toThrow(
      /Invalid setting PLINTH_TENANT: "team-2" ends in - and digits/,
    );
    expect(loadConfig({ PLINTH_TENANT: 'team-2' }).defaultTenant).toBe('team-2');
  });

  it('lets tenants reach only public addresses unless the operator names exceptions', () => {
    expect(loadConfig({}).egress).toEqual({ allow: [], allowLocalRepositories: false });
    expect(
      loadConfig({ PLINTH_EGRESS_ALLOW: ' git.internal, *.corp.example ,10.0.0.0/8,::1', PLINTH_ALLOW_LOCAL_REPOSITORIES: '1' }).egress,
    ).toEqual({
      allow: ['git.internal', '*.corp.example', '10.0.0.0/8', '::1'],
      allowLocalRepositories: true,
    });
  });

  it('creates the demo deployment unless PLINTH_DEMO is 0 or false (issue 14, first start)', () => {
    expect(loadConfig({}).demo).toBe(true);
    for (const off of ['0', 'false', 'FALSE']) expect(loadConfig({ PLINTH_DEMO: off }).demo).toBe(false);
    for (const on of ['1', 'true']) expect(loadConfig({ PLINTH_DEMO: on }).demo).toBe(true);
  });

  it('reads the public URL, the proxies to trust and the sign-in delay (issue 10)', () => {
    expect(
      loadConfig({
        PLINTH_PUBLIC_URL: 'https://Plinth.Example.com:443/',
        PLINTH_TRUST_PROXY: '10.0.0.0/8, 192.0.2.1',
        PLINTH_SIGNIN_DELAY_MS: '250',
      }),
    ).toMatchObject({ publicUrl: 'https://plinth.example.com', trustProxy: ['10.0.0.0/8', '192.0.2.1'], signInDelayMs: 250 });
    expect(loadConfig({ PLINTH_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ PLINTH_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({})).toMatchObject({
      publicUrl: undefined,
      trustProxy: false,
      signInDelayMs: 1000,
      jobPollMs: 2000,
      telemetryRetentionDays: 90,
    });
  });

  it('reads the Redis shared by the data API’s processes (issue 14), optional, never echoing its password', () => {
    expect(loadConfig({})).toMatchObject({ redisUrl: undefined, redisNamespace: undefined });
    expect(loadConfig({ PLINTH_REDIS_URL: 'rediss://:pw@cache.internal:6380/2', PLINTH_REDIS_NAMESPACE: 'eu-1' })).toMatchObject({
      redisUrl: 'rediss://:pw@cache.internal:6380/2',
      redisNamespace: 'eu-1',
    });
    expect(loadConfig({ PLINTH_REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
    expect(() => loadConfig({ PLINTH_REDIS_URL: 'http://user:hunter2@cache:6379' })).toThrow(/"http:\/\/\*\*\*@cache:6379"/);
  });
});

describe('the warehouse connect timeout (issue 14)', () => {
  it('is 10 s unless PLINTH_WAREHOUSE_CONNECT_TIMEOUT_MS says otherwise, from 100 ms to 10 minutes', () => {
    expect(loadConfig({}).warehouseConnectTimeoutMs).toBe(10_000);
    expect(loadConfig({ PLINTH_WAREHOUSE_CONNECT_TIMEOUT_MS: '2500' }).warehouseConnectTimeoutMs).toBe(2500);
    for (const bad of ['50', '600001', '1s']) {
      expect(() => loadConfig({ PLINTH_WAREHOUSE_CONNECT_TIMEOUT_MS: bad })).toThrow(/Invalid setting PLINTH_WAREHOUSE_CONNECT_TIMEOUT_MS/);
    }
  });
});
