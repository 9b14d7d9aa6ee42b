import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StandInRepository } from './stand-in.js';

type Access = (owner: string, name: string, authorization: string | undefined) => StandInRepository | 'unauthorized' | undefined;

/**
 * Serves a stand-in repository's git data as github.com does: smart HTTP (`git http-backend`, so
 * the shallow clones the server makes work; git's dumb protocol cannot serve `--depth 1`), behind
 * basic auth with `x-access-token:<installation token>`. A clone without a valid token gets 401,
 * and a repository the token's installation does not hold reads as missing, as on GitHub.
 */
export async function serveGit(req: IncomingMessage, res: ServerResponse, url: URL, access: Access): Promise<void> {
  const match = /^\/([^/]+)\/([^/]+?)\.git(\/.*)$/.exec(url.pathname);
  if (!match) return plain(res, 404, 'Not Found');
  const [, owner, name, rest] = match;
  const repo = access(owner!, name!, req.headers.authorization);
  if (repo === 'unauthorized') {
    res.setHeader('www-authenticate', 'Basic realm="GitHub"');
    return plain(res, 401, 'Invalid username or token.');
  }
  if (!repo) return plain(res, 404, 'Repository not found.');
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_PROJECT_ROOT: repo.dir,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: `/.git${rest}`,
      REQUEST_METHOD: req.method ?? 'GET',
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      REMOTE_ADDR: '127.0.0.1',
    },
  });
  req.pipe(child.stdin);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const output = Buffer.concat(chunks);
  let split = output.indexOf('\r\n\r\n');
  let gap = 4;
  if (split < 0) {
    split = output.indexOf('\n\n');
    gap = 2;
  }
  if (split < 0) return plain(res, 500, `git http-backend failed (exit ${code})`);
  res.statusCode = 200;
  for (const line of output.subarray(0, split).toString().split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const header = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (header.toLowerCase() === 'status') res.statusCode = Number(value.split(' ')[0]);
    else res.setHeader(header, value);
  }
  res.end(output.subarray(split + gap));
}

function plain(res: ServerResponse, status: number, text: string) {
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain');
  res.end(text);
}
