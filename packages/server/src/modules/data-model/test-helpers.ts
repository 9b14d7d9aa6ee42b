import type { TestAccount, TestServer, TestUser } from '../../test-support/server.js';

/** Requests to one deployment's data model, as one credential (an API key of a user, or a raw Authorization value). */
export function modelClient(account: TestAccount, deploymentId: number, as: TestUser | string) {
  const base = `/build/api/v1/deployments/${deploymentId}`;
  const q = (query: Record<string, string | undefined>) => {
    const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
    const text = params.toString();
    return text ? `?${text}` : '';
  };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    account.request({ method, url: `${base}${url}`, as, body });
  return {
    call,
    list: (branch?: string) => call('GET', `/files${q({ branch })}`),
    get: (path: string, branch?: string) => call('GET', `/files/content${q({ path, branch })}`),
    put: (path: string, content: string, branch?: string) => call('PUT', '/files/content', { path, content, branch }),
    remove: (path: string, branch?: string) => call('DELETE', `/files/content${q({ path, branch })}`),
    rename: (from: string, to: string, branch?: string) => call('POST', '/files/rename', { from, to, branch }),
    hashes: (branch?: string) => call('GET', `/file-hashes${q({ branch })}`),
    commits: (query: Record<string, string | undefined> = {}) => call('GET', `/commits${q(query)}`),
    diff: (branch?: string) => call('GET', `/diff${q({ branch })}`),
    branches: () => call('GET', '/branches'),
    createBranch: (body: Record<string, unknown>) => call('POST', '/branches', body),
    deleteBranch: (name: string, query: Record<string, string | undefined> = {}) =>
      call('DELETE', `/branches/${encodeURIComponent(name)}${q(query)}`),
    enable: (name: string) => call('POST', `/branches/${encodeURIComponent(name)}/enable`),
    disable: (name: string) => call('POST', `/branches/${encodeURIComponent(name)}/disable`),
    devMode: () => call('GET', '/dev-mode'),
    enter: (branch: string) => call('POST', '/dev-mode', { branch }),
    exit: () => call('DELETE', '/dev-mode'),
    commit: (body: Record<string, unknown>) => call('POST', '/commit', body),
    pull: (body: Record<string, unknown> = {}) => call('POST', '/pull', body),
    merge: (body: Record<string, unknown>) => call('POST', '/merge', body),
    mergeToDefault: (body: Record<string, unknown>) => call('POST', '/merge-to-default', body),
  };
}

export async function newDeployment(server: TestServer, account: TestAccount): Promise<number> {
  return (await server.services.deployments.create(account.id, { name: 'analytics' }, 'http://localhost')).id;
}
