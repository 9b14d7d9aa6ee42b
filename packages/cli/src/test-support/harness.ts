import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/src/test-support/server.js';
import { storeKinds } from '../../../server/src/test-support/stores.js';
import type { StoreKind } from '../../../server/src/store/store.js';
import type { BackgroundJob, IO } from '../core/io.js';
import { run } from '../run.js';

export interface CliUser {
  id: number;
  email: string;
  apiKey: string;
}

/** A real server listening on 127.0.0.1, whose default account the CLI reaches by plain IP. */
export interface CliServer {
  server: TestServer;
  url: string;
  accountId: number;
  admin: CliUser;
  member: CliUser;
  addUser(role: 'admin' | 'member', email?: string): Promise<CliUser>;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  jobs: BackgroundJob[];
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  stderrIsTTY?: boolean;
  /** Standard input is a terminal; `secrets` answers its password prompts, in order. */
  stdinIsTTY?: boolean;
  secrets?: string[];
  /** Called with stderr as it grows (the device flow test reads the code from it). */
  onStderr?: (text: string) => void;
}

/** Runs the real command tree in-process with captured streams and a private config directory. */
export function cliRunner(configHome: () => string) {
  return async (argv: string[], options: RunOptions = {}): Promise<CliResult> => {
    let stdout = '';
    let stderr = '';
    const jobs: BackgroundJob[] = [];
    const secrets = [...(options.secrets ?? [])];
    const io: IO = {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: {
        write: (text: string) => {
          stderr += text;
          options.onStderr?.(stderr);
        },
      },
      readStdin: async () => options.stdin ?? '',
      env: { XDG_CONFIG_HOME: configHome(), HOME: configHome(), ...options.env },
      stdinIsTTY: options.stdinIsTTY ?? false,
      promptSecret: async (prompt) => {
        stderr += `${prompt}\n`;
        const answer = secrets.shift();
        if (answer === undefined) throw new Error(`Unexpected prompt: ${prompt}`);
        return answer;
      },
      stdoutIsTTY: false,
      stderrIsTTY: options.stderrIsTTY ?? false,
      platform: 'linux',
      homedir: configHome(),
      background: (job) => jobs.push(job),
    };
    const code = await run(argv, io);
    return { code, stdout, stderr, jobs };
  };
}

/** Per store kind: a listening server with a default account, and a fresh config dir per test file. */
export function describeCli(name: string, body: (ctx: () => CliServer, configHome: () => string) => void) {
  describe.each(storeKinds)(`${name} [%s]`, (kind) => {
    let ctx: CliServer | undefined;
    let home = '';
    beforeAll(async () => {
      ctx = await startCliServer(kind);
      home = await mkdtemp(join(tmpdir(), 'plinth-cli-test-'));
    });
    afterAll(async () => {
      await ctx?.server.app.close();
      await ctx?.server.store.close();
      if (home) await rm(home, { recursive: true, force: true });
    });
    body(
      () => ctx!,
      () => home,
    );
  });
}

export async function startCliServer(kind: StoreKind): Promise<CliServer> {
  // No base domain: the CLI reaches the default account by IP, and links point at where it listens.
  const server = await startTestServer(kind, { PLINTH_TENANT: 'clitest', PLINTH_BASE_DOMAIN: '' });
  const account = await server.services.accounts.create('clitest');
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let n = 0;
  const addUser = async (role: 'admin' | 'member', email = `${role}${++n}@clitest.example.com`): Promise<CliUser> => {
    const user = await server.store.db
      .insertInto('app_user')
      .values({ account_id: account.id, email, role, display_name: `${role} user` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const key = await server.services.credentials.createApiKey(account.id, user.id, { name: `${role} key`, role, deploymentIds: null });
    return { id: user.id, email, apiKey: key.key };
  };
  return { server, url: `http://127.0.0.1:${port}`, accountId: account.id, admin: await addUser('admin', 'admin@clitest.example.com'), member: await addUser('member', 'member@clitest.example.com'), addUser };
}
