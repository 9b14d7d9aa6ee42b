import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** A git host for tests: git's own smart HTTP (`git http-backend`), as GitHub serves repositories. */
export interface TestGitHost {
  /** `http://127.0.0.1:<port>` — repositories are at `{url}/{name}`. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

export interface TestGitHostOptions {
  /** name → repository directory (a working tree; its .git is served). */
  repositories: Record<string, string>;
  /** When set, every request must carry basic auth this function accepts (e.g. x-access-token + a live token). */
  authorize?: (username: string, password: string) => boolean;
  /** Mount under a path prefix, as GitHub Enterprise-style hosts do; '' by default. */
  prefix?: string;
}

/**
 * Serves test repositories over git's smart HTTP protocol by running `git http-backend` as a CGI
 * per request, so clones over http are real clones (shallow ones included) and a missing or wrong
 * token is refused with 401 the way a real host refuses it.
 */
export async function startTestGitHost(options: TestGitHostOptions): Promise<TestGitHost> {
  const prefix = options.prefix ?? '';
  const server = createServer((request, response) => {
    if (options.authorize && !authorized(request, options.authorize)) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('Unauthorized');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://host');
    const path = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : '';
    const match = /^\/([^/]+?)(?:\.git)?(\/.*)$/.exec(path);
    const dir = match ? options.repositories[match[1]!] : undefined;
    if (!match || !dir) return void response.writeHead(404).end('Not Found');
    runBackend(`${dir}/.git`, match[2]!, url.search.slice(1), request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the test git host has no address');
  return {
    url: `http://127.0.0.1:${address.port}${prefix}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function authorized(request: IncomingMessage, authorize: (username: string, password: string) => boolean): boolean {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 && authorize(decoded.slice(0, colon), decoded.slice(colon + 1));
}

function runBackend(gitDir: string, pathInfo: string, query: string, request: IncomingMessage, response: ServerResponse): void {
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: gitDir,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      PATH_INFO: pathInfo,
      REQUEST_METHOD: request.method ?? 'GET',
      QUERY_STRING: query,
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
      REMOTE_ADDR: '127.0.0.1',
    },
  });
  request.pipe(child.stdin);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.on('close', () => {
    const output = Buffer.concat(chunks);
    const split = output.indexOf('\r\n\r\n');
    if (split < 0) return void response.writeHead(500).end();
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of output.subarray(0, split).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    response.writeHead(status, headers).end(output.subarray(split + 4));
  });
}
