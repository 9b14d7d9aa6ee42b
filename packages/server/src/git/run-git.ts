import { spawn } from 'node:child_process';
import type { RemotePins } from './remote-access.js';

/** HTTP(S) credentials for a remote: sent as a basic-auth header, never written to disk or logs. */
export interface GitAuth {
  username: string;
  password: string;
}

export type GitFailure =
  'invalid' | 'refused' | 'unreachable' | 'auth' | 'missing-ref' | 'missing-folder' | 'sha-ref' | 'limit' | 'timeout' | 'cancelled';

/** A git source that could not be read, with a message meant for the user who named it. */
export class GitSourceError extends Error {
  override name = 'GitSourceError';
  constructor(
    readonly reason: GitFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Transports a user-supplied URL may use. `ext::` (runs a command) and anything unlisted is
 * refused by git itself, so a repository URL can never execute a program on the server.
 */
const ALLOWED_PROTOCOLS = 'https:http:ssh:git:file';

export interface GitRun {
  args: readonly string[];
  auth?: GitAuth;
  cwd?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Names the remote in messages (the URL without credentials). */
  remote: string;
  /** How the egress policy lets git reach the remote (remoteAccess); absent for local work in a checkout. */
  pins?: RemotePins;
}

/**
 * Runs git without a terminal, a credential helper, the user's or system's config, or a prompt:
 * a remote that wants a password it was not given fails at once instead of hanging. Credentials
 * travel in the environment (GIT_CONFIG_*), not argv, so other users' `ps` never shows them.
 */
export function runGit(run: GitRun): Promise<string> {
  const ssh = ['ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=15'];
  if (run.pins?.sshHostName) ssh.push('-o', `HostName=${run.pins.sshHostName}`);
  const config: Array<[string, string]> = [['credential.helper', ''], ...(run.pins?.config ?? [])];
  if (run.auth) {
    const basic = Buffer.from(`${run.auth.username}:${run.auth.password}`).toString('base64');
    config.push(['http.extraHeader', `Authorization: Basic ${basic}`]);
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'false',
    SSH_ASKPASS: 'false',
    GIT_SSH_COMMAND: ssh.join(' '),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ALLOW_PROTOCOL: ALLOWED_PROTOCOLS,
    GIT_CONFIG_COUNT: String(config.length),
  };
  for (const [i, [key, value]] of config.entries()) Object.assign(env, { [`GIT_CONFIG_KEY_${i}`]: key, [`GIT_CONFIG_VALUE_${i}`]: value });
  return new Promise((resolve, reject) => {
    if (run.signal?.aborted) return reject(new GitSourceError('cancelled', 'The git operation was cancelled'));
    const child = spawn('git', run.args, { cwd: run.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let stopped: GitSourceError | null = null;
    const stop = (why: GitSourceError) => {
      stopped ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => stop(new GitSourceError('timeout', `Reading ${run.remote} took longer than ${Math.round(run.timeoutMs / 1000)} s`)),
      run.timeoutMs,
    );
    const onAbort = () => stop(new GitSourceError('cancelled', 'The git operation was cancelled'));
    run.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      reject(new GitSourceError('unreachable', `git could not be started: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      if (stopped) return reject(stopped);
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      reject(classify(Buffer.concat(err).toString('utf8'), run.remote));
    });
  });
}

/** git's stderr, turned into the reason a user can act on. */
export function classify(stderr: string, remote: string): GitSourceError {
  const detail = lastLine(stderr);
  if (/authentication failed|could not read (username|password)|permission denied|\b(401|403)\b|terminal prompts disabled/i.test(stderr)) {
    return new GitSourceError('auth', `Authentication to ${remote} failed: ${detail}`);
  }
  if (/remote branch .* not found|couldn't find remote ref/i.test(stderr)) {
    return new GitSourceError('missing-ref', `${detail} (${remote})`);
  }
  return new GitSourceError('unreachable', `Repository ${remote} cannot be reached: ${detail}`);
}

function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('hint:'));
  return (lines.at(-1) ?? 'git failed without a message').replace(/^fatal:\s*/, '');
}

/** The URL as it may appear in a message or log: userinfo (a token in the URL) removed. */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1');
}
