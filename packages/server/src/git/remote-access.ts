import { isIP } from 'node:net';
import { EgressRefusedError, type EgressPolicy } from '../egress/policy.js';
import { displayUrl, GitSourceError } from './run-git.js';

/**
 * How git must be run to reach a remote through the egress policy: the config that pins each
 * http(s) host to the addresses checked (curl's resolve list) and forbids redirects, or the
 * address ssh must connect to. git then never resolves the name itself, so an answer that changed
 * since the check (DNS rebinding) is never used.
 */
export interface RemotePins {
  config: Array<[key: string, value: string]>;
  sshHostName?: string;
}

const DEFAULT_PORTS: Record<string, number> = { 'https:': 443, 'http:': 80, 'ssh:': 22, 'git:': 9418 };
const LOCAL_HINT = "The server's operator can allow them with PLINTH_ALLOW_LOCAL_REPOSITORIES=1.";

/** `user@host:path` (scp-like), as git reads it: a colon before any slash, and not a drive letter. */
function scpHost(remote: string): string | null {
  const match = /^(?:[^@/:]+@)?(\[[^\]]+\]|[^/:]+):(?!\/\/)/.exec(remote);
  if (!match || /^[A-Za-z]$/.test(match[1]!)) return null;
  return match[1]!.replace(/^\[|\]$/g, '');
}

/**
 * Checks a repository a tenant named against the policy and answers how git must reach it: a
 * local path or file:// URL only when the operator allows local repositories; a host only when
 * each address it resolves to is public or allowed. Refusals are GitSourceErrors naming why.
 */
export async function remoteAccess(egress: EgressPolicy, remote: string): Promise<RemotePins> {
  const shown = displayUrl(remote);
  const helper = /^([a-z][a-z0-9+.-]*)::/i.exec(remote)?.[1];
  if (helper) throw new GitSourceError('refused', `The repository "${shown}" uses git's ${helper}:: transport, which is not allowed`);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(remote)?.[1]?.toLowerCase();
  const host = scheme === undefined ? scpHost(remote) : null;
  if (scheme === 'file' || (scheme === undefined && host === null)) {
    if (egress.settings.allowLocalRepositories) return { config: [] };
    throw new GitSourceError('refused', `Local repository paths are refused: "${shown}" is on the server's own disk. ${LOCAL_HINT}`);
  }
  try {
    if (host !== null) return { config: [], sshHostName: await pinned(egress, host, shown) };
    const url = new URL(remote);
    const port = Number(url.port || DEFAULT_PORTS[url.protocol]);
    if (!(url.protocol in DEFAULT_PORTS)) {
      throw new GitSourceError('refused', `The repository "${shown}" uses ${scheme}://, which is not one of https, http, ssh or git`);
    }
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const address = await pinned(egress, hostname, shown);
    if (url.protocol === 'ssh:') return { config: [], sshHostName: address };
    // git:// has no way to be pinned; the name was checked just now.
    if (url.protocol === 'git:') return { config: [] };
    const noRedirects: [string, string] = ['http.followRedirects', 'false'];
    if (isIP(hostname) !== 0) return { config: [noRedirects] };
    const literal = address.includes(':') ? `[${address}]` : address;
    return { config: [['http.curloptResolve', `${hostname}:${port}:${literal}`], noRedirects] };
  } catch (error) {
    if (error instanceof EgressRefusedError) throw new GitSourceError('refused', error.message);
    throw error;
  }
}

async function pinned(egress: EgressPolicy, host: string, shown: string): Promise<string> {
  const [address] = await egress.addressesOf(host, `The repository ${shown}`);
  return address!;
}
