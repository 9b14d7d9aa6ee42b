import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { createGitRepo, type TestGitRepo } from '../git/test-repos.js';
import { IssuerKeys } from '../modules/oidc-token-configs/issuer-keys.js';
import { describeOnStores, type TestAccount } from '../test-support/server.js';
import { EgressPolicy } from './policy.js';
import { NO_EGRESS_EXCEPTIONS } from './settings.js';

/** A listener on loopback standing for an internal service: it counts every connection it gets. */
let connections = 0;
const internal: Server = createServer((socket: Socket) => {
  connections += 1;
  socket.destroy();
});
await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(internal.address() as { port: number }).port}`;
/** A real repository on this machine's disk. */
const repo: TestGitRepo = await createGitRepo({ 'model/a.yml': 'cubes: []\n' });
afterAll(async () => {
  await new Promise((resolve) => internal.close(resolve));
  await repo.remove();
});

const HINT = "The server's operator can allow it with PLINTH_EGRESS_ALLOW.";
const LOCAL_HINT = "The server's operator can allow them with PLINTH_ALLOW_LOCAL_REPOSITORIES=1.";

async function newDeployment(account: TestAccount): Promise<number> {
  return (await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } })).body.id;
}

// The server as it runs by default: no internal host and no local path is any tenant's to reach.
describeOnStores(
  'egress of tenant-chosen URLs and paths',
  (server) => {
    const refusals: Array<[string, (account: TestAccount) => Promise<{ status: number; body: any }>, string]> = [
      [
        'a GitHub connection by URL to loopback',
        async (a) =>
          a.request({
            method: 'POST',
            url: `/api/v1/deployments/${await newDeployment(a)}/github`,
            as: a.admin,
            body: { repository: `${base}/repo.git`, branch: 'main' },
          }),
        `The repository ${base}/repo.git is refused: 127.0.0.1 is a loopback address. ${HINT}`,
      ],
      [
        "a GitHub connection by a path on the server's disk",
        async (a) =>
          a.request({
            method: 'POST',
            url: `/api/v1/deployments/${await newDeployment(a)}/github`,
            as: a.admin,
            body: { repository: repo.dir, branch: 'main' },
          }),
        `Local repository paths are refused: "${repo.dir}" is on the server's own disk. ${LOCAL_HINT}`,
      ],
      [
        'a dbt repository on loopback',
        async (a) =>
          a.request({
            method: 'PUT',
            url: `/build/api/v1/deployments/${await newDeployment(a)}/dbt`,
            as: a.admin,
            body: { repository: `${base}/dbt.git` },
          }),
        `The repository ${base}/dbt.git is refused: 127.0.0.1 is a loopback address. ${HINT}`,
      ],
      [
        "a dbt repository on the server's disk",
        async (a) =>
          a.request({
            method: 'PUT',
            url: `/build/api/v1/deployments/${await newDeployment(a)}/dbt`,
            as: a.admin,
            body: { repository: repo.dir },
          }),
        `Local repository paths are refused: "${repo.dir}" is on the server's own disk. ${LOCAL_HINT}`,
      ],
      [
        'an OIDC issuer on loopback',
        (a) =>
          a.request({
            method: 'POST',
            url: '/api/v1/oidc-token-configs',
            as: a.admin,
            body: { name: 'i', issuer: base, audiences: ['p'] },
          }),
        `issuer ${base} is refused: 127.0.0.1 is a loopback address. ${HINT}`,
      ],
      [
        'an OIDC key set on a name resolving to loopback',
        (a) =>
          a.request({
            method: 'POST',
            url: '/api/v1/oidc-token-configs',
            as: a.admin,
            body: { name: 'j', issuer: 'https://login.example.com', audiences: ['p'], jwksUri: 'http://localhost:1/keys' },
          }),
        'jwksUri http://localhost:1 is refused: localhost resolves to',
      ],
      // tokenUrl itself never gets this far: its schema's url format refuses internal hosts.
      [
        'an OAuth revocation URL on link-local (cloud metadata)',
        (a) =>
          a.request({
            method: 'POST',
            url: '/api/v1/oauth-integrations',
            as: a.admin,
            body: { ...OAUTH, config: { revocationUrl: 'http://169.254.169.254/latest/meta-data' } },
          }),
        `config.revocationUrl http://169.254.169.254 is refused: 169.254.169.254 is a link-local address. ${HINT}`,
      ],
      [
        'an LLM endpoint on loopback',
        (a) =>
          a.request({ method: 'POST', url: '/api/v1/agent-llms', as: a.admin, body: { name: 'l', baseUrl: `${base}/v1`, model: 'm' } }),
        `baseUrl ${base} is refused: 127.0.0.1 is a loopback address. ${HINT}`,
      ],
    ];

    it.each(refusals)('%s is a 400 naming why, and nothing is sent to it', async (_, call, message) => {
      const before = connections;
      const response = await call(await server().newAccount());
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body.error).toContain(message);
      expect(connections).toBe(before);
    });

    it("the issuer's keys of a config are fetched through the policy too, checked when they are needed", async () => {
      const keys = new IssuerKeys(new EgressPolicy(NO_EGRESS_EXCEPTIONS));
      const before = connections;
      await expect(keys.forIssuer(base, null)).rejects.toMatchObject({
        code: 'temporarily_unavailable',
        description: expect.stringContaining('127.0.0.1 is a loopback address'),
      });
      expect(connections).toBe(before);
    });

    it('failed token exchanges from one address are slowed down as failed sign-ins are', async () => {
      const account = await server().newAccount();
      const exchange = () =>
        account.request({
          method: 'POST',
          url: '/api/v1/oidc/token',
          body: {
            grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
            subject_token: 'not-a-jwt',
            subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
          },
        });
      for (let i = 0; i < 30; i++) expect((await exchange()).status).toBe(400);
      const slowed = await exchange();
      expect(slowed.status).toBe(429);
      expect(slowed.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: expect.stringMatching(/^Too many failed token exchanges from your address; try again in \d+ seconds$/),
      });
      expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    });
  },
  { PLINTH_EGRESS_ALLOW: '', PLINTH_ALLOW_LOCAL_REPOSITORIES: '0' },
);

const OAUTH = {
  name: 'Snowflake OAuth',
  type: 'snowflake',
  authUrl: 'https://example.snowflakecomputing.com/oauth/authorize',
  tokenUrl: 'https://example.snowflakecomputing.com/oauth/token-request',
  clientId: 'client-123',
  redirectUri: 'https://plinth.example.com/oauth/callback',
};
