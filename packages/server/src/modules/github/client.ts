import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { GithubAppConfig } from '../../config.js';
import { ApiError, badRequest } from '../../http/errors.js';

/** The REST API version every request names, as GitHub asks clients to. */
export const GITHUB_API_VERSION = '2022-11-28';
const USER_AGENT = 'plinth-server';
/** A JWT lives at most 10 minutes at GitHub; ours lives 9 and is backdated 60 s for clock drift. */
const JWT_LIFETIME_S = 9 * 60;
/** An installation token lives an hour; one this close to expiry is not handed to a clone. */
const TOKEN_MARGIN_MS = 5 * 60_000;
/** Bounds a listing: 50 pages of 100 is more than any installation this server serves. */
const MAX_PAGES = 50;
const TIMEOUT_MS = 30_000;

export const NOT_CONFIGURED =
  'GitHub is not configured on this server: set PLINTH_GITHUB_APP_ID and PLINTH_GITHUB_APP_PRIVATE_KEY (or PLINTH_GITHUB_APP_PRIVATE_KEY_FILE), and PLINTH_GITHUB_API_URL for GitHub Enterprise';

export interface GithubApp {
  id: number;
  slug: string;
  name: string;
  owner: { login: string } | null;
  html_url: string;
}

export interface GithubInstallation {
  id: number;
  account: { login: string; type: string } | null;
  repository_selection: string;
  html_url: string;
  app_slug?: string;
  suspended_at?: string | null;
}

export interface GithubRepository {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  default_branch: string;
  clone_url: string;
  html_url: string;
}

export interface GithubBranch {
  name: string;
  commit: { sha: string };
  protected: boolean;
}

/**
 * GitHub's REST API as a GitHub App uses it: the App signs a short RS256 JWT with its private key
 * for the App's own endpoints, and trades it for an installation token (cached until near expiry)
 * for an installation's repositories. Every GitHub failure becomes a 400 (what the caller named or
 * configured is wrong) or a 502 (GitHub could not answer), never a 500.
 */
export class GithubClient {
  private key: KeyObject | undefined;
  private jwt: { value: string; until: number } | undefined;
  private readonly tokens = new Map<number, { token: string; expiresAt: number }>();

  constructor(
    private readonly config: GithubAppConfig,
    private readonly now: () => number = Date.now,
  ) {}

  get configured(): boolean {
    return this.config.appId !== undefined && this.config.privateKey !== undefined;
  }

  get apiUrl(): string {
    return this.config.apiUrl;
  }

  getApp(): Promise<GithubApp> {
    return this.request<GithubApp>('/app', { as: 'app' });
  }

  listInstallations(): Promise<GithubInstallation[]> {
    return this.paginate<GithubInstallation>('/app/installations', { as: 'app' });
  }

  async listRepositories(installationId: number): Promise<GithubRepository[]> {
    const pages = await this.paginate<{ repositories: GithubRepository[] }>('/installation/repositories', { as: installationId });
    return pages.flatMap((page) => page.repositories);
  }

  getRepository(installationId: number, fullName: string): Promise<GithubRepository> {
    return this.request<GithubRepository>(`/repos/${repoPath(fullName)}`, { as: installationId, what: `Repository ${fullName}` });
  }

  listBranches(installationId: number, fullName: string): Promise<GithubBranch[]> {
    return this.paginate<GithubBranch>(`/repos/${repoPath(fullName)}/branches`, { as: installationId, what: `Repository ${fullName}` });
  }

  /** A token for cloning the installation's repositories (`x-access-token:<token>`); cached until near expiry. */
  async installationToken(installationId: number): Promise<string> {
    const cached = this.tokens.get(installationId);
    if (cached && cached.expiresAt - TOKEN_MARGIN_MS > this.now()) return cached.token;
    const issued = await this.request<{ token: string; expires_at: string }>(`/app/installations/${installationId}/access_tokens`, {
      as: 'app',
      method: 'POST',
      what: `Installation ${installationId}`,
    });
    const expiresAt = Date.parse(issued.expires_at);
    if (typeof issued.token !== 'string' || Number.isNaN(expiresAt))
      throw badGateway('GitHub answered an installation token without token or expires_at');
    this.tokens.set(installationId, { token: issued.token, expiresAt });
    return issued.token;
  }

  /** Forgets a cached token GitHub no longer accepts (revoked), so the next call asks for a new one. */
  forgetToken(installationId: number): void {
    this.tokens.delete(installationId);
  }

  private async appJwt(): Promise<string> {
    if (!this.configured) throw badRequest(NOT_CONFIGURED);
    const now = this.now();
    if (this.jwt && this.jwt.until > now + 60_000) return this.jwt.value;
    this.key ??= createPrivateKey(this.config.privateKey!);
    const iat = Math.floor(now / 1000) - 60;
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(this.config.appId!)
      .setIssuedAt(iat)
      .setExpirationTime(iat + JWT_LIFETIME_S)
      .sign(this.key);
    this.jwt = { value, until: (iat + JWT_LIFETIME_S) * 1000 };
    return value;
  }

  private async paginate<T>(path: string, options: RequestOptions): Promise<T[]> {
    const items: T[] = [];
    let url: string | null = `${this.config.apiUrl}${path}?per_page=100`;
    for (let page = 0; url !== null && page < MAX_PAGES; page++) {
      const response = await this.send(url, options);
      const body = await readJson(response);
      items.push(...(Array.isArray(body) ? (body as T[]) : [body as T]));
      url = this.nextLink(response.headers.get('link'));
    }
    return items;
  }

  /** The `rel="next"` of a Link header; only on the API's own origin, so a token never travels elsewhere. */
  private nextLink(header: string | null): string | null {
    if (!header) return null;
    for (const part of header.split(',')) {
      const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
      if (!match) continue;
      const next = new URL(match[1]!, this.config.apiUrl);
      if (next.origin !== new URL(this.config.apiUrl).origin) throw badGateway(`GitHub sent a next page on another host (${next.origin})`);
      return next.toString();
    }
    return null;
  }

  private async request<T>(path: string, options: RequestOptions): Promise<T> {
    return (await readJson(await this.send(`${this.config.apiUrl}${path}`, options))) as T;
  }

  /** A cached installation token GitHub refuses (revoked before it expired) is replaced once, and the call made again. */
  private async send(url: string, options: RequestOptions): Promise<Response> {
    const cached = typeof options.as === 'number' && this.tokens.has(options.as);
    try {
      return await this.sendOnce(url, options);
    } catch (error) {
      if (!cached || !(error instanceof ApiError) || !error.message.startsWith('GitHub refused the installation token')) throw error;
      return this.sendOnce(url, options);
    }
  }

  private async sendOnce(url: string, options: RequestOptions): Promise<Response> {
    const authorization = options.as === 'app' ? `Bearer ${await this.appJwt()}` : `token ${await this.installationToken(options.as)}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: options.method ?? 'GET',
        headers: {
          accept: 'application/vnd.github+json',
          'x-github-api-version': GITHUB_API_VERSION,
          'user-agent': USER_AGENT,
          authorization,
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      throw badGateway(`GitHub API at ${this.config.apiUrl} cannot be reached: ${causeOf(error)}`);
    }
    if (response.ok) return response;
    if (response.status === 401 && typeof options.as === 'number') this.forgetToken(options.as);
    throw await toApiError(response, options);
  }
}

interface RequestOptions {
  /** The App itself (JWT), or an installation (its token). */
  as: 'app' | number;
  method?: 'GET' | 'POST';
  /** Names what a 404 did not find. */
  what?: string;
}

const repoPath = (fullName: string) => fullName.split('/').map(encodeURIComponent).join('/');

export const badGateway = (message: string) => new ApiError('bad_gateway', message);

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw badGateway(`GitHub answered ${response.url} with a body that is not JSON`);
  }
}

/** GitHub's own message, its status, and what to do about it. */
async function toApiError(response: Response, options: RequestOptions): Promise<ApiError> {
  let message = '';
  try {
    message = String(((await response.json()) as { message?: unknown }).message ?? '');
  } catch {
    message = response.statusText;
  }
  const said = `(GitHub: ${response.status}${message ? ` ${message}` : ''})`;
  const limited = response.status === 429 || (response.status === 403 && response.headers.get('x-ratelimit-remaining') === '0');
  if (limited) {
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    const retry = Number(response.headers.get('retry-after'));
    const seconds =
      Number.isFinite(retry) && retry > 0
        ? retry
        : Number.isFinite(reset) && reset > 0
          ? Math.max(1, reset - Math.floor(Date.now() / 1000))
          : undefined;
    return new ApiError('bad_gateway', `GitHub's rate limit is exhausted; try again${seconds ? ` in ${seconds} s` : ' later'} ${said}`, {
      ...(seconds ? { retryAfterSeconds: seconds } : {}),
    });
  }
  if (response.status === 401) {
    return options.as === 'app'
      ? badRequest(`GitHub refused the App's credentials: check PLINTH_GITHUB_APP_ID and the private key ${said}`)
      : badRequest(`GitHub refused the installation token of installation ${options.as} ${said}`);
  }
  if (response.status === 404) {
    const what = options.what ?? 'The resource';
    const installation = typeof options.as === 'number' ? ` or installation ${options.as} of the App cannot reach it` : '';
    return badRequest(`${what} not found on GitHub${installation} ${said}`);
  }
  if (response.status === 403 || response.status === 422) return badRequest(`GitHub refused the request ${said}`);
  return badGateway(`GitHub failed to answer ${said}`);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.code;
  return error instanceof Error ? error.message : String(error);
}
