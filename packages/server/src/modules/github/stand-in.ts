import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { serveGit } from './stand-in-git.js';

/**
 * A local stand-in for GitHub (tests only): a real HTTP server on 127.0.0.1 that answers the REST
 * endpoints Plinth uses the way GitHub does (App JWTs verified against the App's public key,
 * installation tokens, Link pagination, GitHub's error bodies and rate-limit headers), and serves
 * the repositories' git data over smart HTTP, cloneable only with `x-access-token:<token>`.
 */
export interface StandInRepository {
  owner: string;
  name: string;
  /** A git repository on disk (a work tree with `.git`, as createGitRepo makes). */
  dir: string;
  defaultBranch?: string;
  private?: boolean;
}

export interface StandInInstallation {
  id: number;
  account: string;
  repositories: StandInRepository[];
}

export interface StandInOptions {
  /** Where the REST API lives, e.g. `/api/v3` for GitHub Enterprise Server; '' for api.github.com's layout. */
  apiPrefix?: string;
  appId?: number;
  installations?: StandInInstallation[];
  /** Items per page when the client asks for more (to exercise Link pagination with few items). */
  maxPerPage?: number;
}

export interface GithubStandIn {
  url: string;
  apiUrl: string;
  appId: number;
  /** The App's private key (PKCS#1 PEM, as GitHub hands it out). */
  privateKeyPem: string;
  installations: StandInInstallation[];
  /** Every API request, for checks of the headers GitHub requires. */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  /** Every git request, with the basic-auth user and password it carried (the installation token). */
  gitRequests: Array<{ path: string; user: string | null; token: string | null }>;
  /** Tokens issued so far, newest last. */
  tokens: string[];
  revokeTokens(): void;
  /** Suspends (true) or unsuspends an installation: GitHub then issues it no tokens. */
  suspend(installationId: number, suspended: boolean): void;
  /** The next API calls answer 403 with GitHub's rate-limit headers until it is turned off. */
  rateLimited: boolean;
  /** The config overrides that point a server at this stand-in. */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export async function startGithubStandIn(options: StandInOptions = {}): Promise<GithubStandIn> {
  const prefix = options.apiPrefix ?? '';
  const appId = options.appId ?? 4242;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const tokens = new Map<string, { installationId: number; expiresAt: number }>();
  const state = {
    installations: options.installations ?? [],
    requests: [] as GithubStandIn['requests'],
    gitRequests: [] as GithubStandIn['gitRequests'],
    rateLimited: false,
    suspended: new Set<number>(),
  };
  let base = '';

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    if (!url.pathname.startsWith(`${prefix}/`) || url.pathname.endsWith('.git') || url.pathname.includes('.git/')) {
      return serveGit(req, res, url, (owner, name, authorization) => gitAccess(url.pathname, owner, name, authorization));
    }
    const path = url.pathname.slice(prefix.length);
    state.requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    if (!req.headers['user-agent']) {
      return send(res, 403, {
        message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
      });
    }
    if (state.rateLimited) {
      res.setHeader('x-ratelimit-limit', '5000');
      res.setHeader('x-ratelimit-remaining', '0');
      res.setHeader('x-ratelimit-reset', String(Math.floor(Date.now() / 1000) + 120));
      return send(res, 403, { message: 'API rate limit exceeded for installation.' });
    }
    const method = req.method ?? 'GET';
    if (path === '/app' || path.startsWith('/app/')) {
      if (!(await appAuthorized(req.headers.authorization, publicKey, appId))) {
        return send(res, 401, { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest' });
      }
      if (method === 'GET' && path === '/app') {
        return send(res, 200, {
          id: appId,
          slug: 'plinth-test',
          name: 'Plinth Test',
          owner: { login: 'acme' },
          html_url: `${base}/apps/plinth-test`,
        });
      }
      if (method === 'GET' && path === '/app/installations') return page(req, res, url, state.installations.map(installationView));
      const tokenRoute = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
      if (method === 'POST' && tokenRoute) {
        const installation = state.installations.find((i) => i.id === Number(tokenRoute[1]));
        if (!installation) return notFound(res);
        if (state.suspended.has(installation.id)) return send(res, 403, { message: 'This installation has been suspended' });
        const token = `ghs_${randomBytes(18).toString('hex')}`;
        const expiresAt = Date.now() + 3_600_000;
        tokens.set(token, { installationId: installation.id, expiresAt });
        return send(res, 201, {
          token,
          expires_at: new Date(expiresAt).toISOString(),
          permissions: { contents: 'read' },
          repository_selection: 'selected',
        });
      }
      return notFound(res);
    }
    const installation = installationOf(req.headers.authorization);
    if (!installation) return send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    if (method === 'GET' && path === '/installation/repositories') {
      const views = installation.repositories.map(repositoryView);
      return page(req, res, url, views, (items) => ({ total_count: views.length, repositories: items }));
    }
    const repoRoute = /^\/repos\/([^/]+)\/([^/]+)(\/branches)?$/.exec(path);
    if (method === 'GET' && repoRoute) {
      const repo = installation.repositories.find((r) => r.owner === repoRoute[1] && r.name === repoRoute[2]);
      if (!repo) return notFound(res);
      if (!repoRoute[3]) return send(res, 200, repositoryView(repo));
      return page(req, res, url, await branchesOf(repo));
    }
    return notFound(res);
  }

  function installationOf(authorization: string | undefined) {
    const token = /^(?:token|Bearer) (\S+)$/.exec(authorization ?? '')?.[1];
    const held = token ? tokens.get(token) : undefined;
    if (!held || held.expiresAt < Date.now()) return undefined;
    return state.installations.find((i) => i.id === held.installationId);
  }

  function gitAccess(
    path: string,
    owner: string,
    name: string,
    authorization: string | undefined,
  ): StandInRepository | 'unauthorized' | undefined {
    const basic = /^Basic (\S+)$/.exec(authorization ?? '')?.[1];
    const [user, token] = basic ? Buffer.from(basic, 'base64').toString().split(':') : [];
    state.gitRequests.push({ path, user: user ?? null, token: token ?? null });
    const installation = user === 'x-access-token' ? installationOf(`token ${token}`) : undefined;
    if (!installation) return 'unauthorized';
    return installation.repositories.find((r) => r.owner === owner && r.name === name);
  }

  function repositoryView(repo: StandInRepository) {
    return {
      id: hashId(`${repo.owner}/${repo.name}`),
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      owner: { login: repo.owner },
      private: repo.private ?? true,
      default_branch: repo.defaultBranch ?? 'main',
      html_url: `${base}/${repo.owner}/${repo.name}`,
      clone_url: `${base}/${repo.owner}/${repo.name}.git`,
    };
  }

  function installationView(installation: StandInInstallation) {
    return {
      id: installation.id,
      account: { login: installation.account, type: 'Organization' },
      app_id: appId,
      app_slug: 'plinth-test',
      repository_selection: 'selected',
      html_url: `${base}/organizations/${installation.account}/settings/installations/${installation.id}`,
      suspended_at: state.suspended.has(installation.id) ? new Date().toISOString() : null,
    };
  }

  function page<T>(req: IncomingMessage, res: ServerResponse, url: URL, all: T[], wrap?: (items: T[]) => unknown) {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30) || 30, options.maxPerPage ?? 100);
    const number = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const link = (n: number, rel: string) => {
      const target = new URL(url);
      target.searchParams.set('page', String(n));
      return `<${target.toString()}>; rel="${rel}"`;
    };
    const links = [];
    if (number < last) links.push(link(number + 1, 'next'), link(last, 'last'));
    if (number > 1) links.push(link(1, 'first'), link(number - 1, 'prev'));
    if (links.length > 0) res.setHeader('link', links.join(', '));
    const items = all.slice((number - 1) * perPage, number * perPage);
    return send(res, 200, wrap ? wrap(items) : items);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const standIn: GithubStandIn = {
    url: base,
    apiUrl: `${base}${prefix}`,
    appId,
    privateKeyPem,
    installations: state.installations,
    requests: state.requests,
    gitRequests: state.gitRequests,
    get tokens() {
      return [...tokens.keys()];
    },
    revokeTokens: () => tokens.clear(),
    suspend: (installationId, suspended) => void (suspended ? state.suspended.add(installationId) : state.suspended.delete(installationId)),
    get rateLimited() {
      return state.rateLimited;
    },
    set rateLimited(value: boolean) {
      state.rateLimited = value;
    },
    env: (extra = {}) => ({
      PLINTH_GITHUB_API_URL: `${base}${prefix}`,
      PLINTH_GITHUB_APP_ID: String(appId),
      PLINTH_GITHUB_APP_PRIVATE_KEY: privateKeyPem,
      ...extra,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}

async function appAuthorized(authorization: string | undefined, publicKey: KeyObject, appId: number): Promise<boolean> {
  const jwt = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (!jwt) return false;
  try {
    const { payload } = await jwtVerify(jwt, publicKey, { algorithms: ['RS256'], issuer: String(appId) });
    // GitHub refuses a JWT that lives longer than 10 minutes.
    return typeof payload.exp === 'number' && typeof payload.iat === 'number' && payload.exp - payload.iat <= 600;
  } catch {
    return false;
  }
}

async function branchesOf(repo: StandInRepository) {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const { stdout } = await promisify(execFile)('git', ['for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads'], {
    cwd: repo.dir,
  });
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name, sha] = line.split(' ');
      return { name, commit: { sha, url: '' }, protected: false };
    });
}

function notFound(res: ServerResponse) {
  send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('x-github-media-type', 'github.v3; format=json');
  res.end(JSON.stringify(body));
}

function hashId(text: string): number {
  let h = 0;
  for (const char of text) h = (h * 31 + char.charCodeAt(0)) % 1_000_000_007;
  return h;
}
