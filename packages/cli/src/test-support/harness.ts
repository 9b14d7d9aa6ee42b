import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { startTestServer, type TestServer, storeKinds, type StoreKind } from '@plinth/server/test-support';
import type { BackgroundJob, IO } from '../core/io.js';
import { run } from '../run.js';

export interface CliUser {
  id: number;
  email: string;
  apiKey: string;
}

/** One test's account on a real server listening on 127.0.0.1, reached by plain IP (see describeCli). */
export interface CliServer {
  server: TestServer;
  url: string;
  accountId: number;
  accountName: string;
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
  /** Called with stdout as it grows (a follow's test waits for a line). */
  onStdout?: (text: string) => void;
  /** Stands for Ctrl-C: aborting it interrupts a command that runs until interrupted. */
  interrupt?: AbortSignal;
  /** Replaces the pause between polls (the clock by default) with a wait on the event polled for. */
  wait?: (ms: number) => Promise<void>;
}

/** Runs the real command tree in-process with captured streams and a private config directory. */
export function cliRunner(configHome: () => string) {
  return async (argv: string[], options: RunOptions = {}): Promise<CliResult> => {
    let stdout = '';
    let stderr = '';
    const jobs: BackgroundJob[] = [];
    const secrets = [...(options.secrets ?? [])];
    const io: IO = {
      stdout: {
        write: (text: string) => {
          stdout += text;
          options.onStdout?.(stdout);
        },
      },
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
      wait: options.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      interrupted: () => options.interrupt ?? new AbortController().signal,
    };
    const code = await run(argv, io);
    return { code, stdout, stderr, jobs };
  };
}

/**
 * Per store kind, one listening server per test file; per test, a new account with an admin and a
 * member, and a fresh config directory, so every test runs alone or in any order.
 */
export function describeCli(
  name: string,
  body: (ctx: () => CliServer, configHome: () => string) => void,
  configOverrides: Record<string, string> = {},
) {
  describe.each(storeKinds)(`${name} [%s]`, (kind) => {
    let listening: Listening | undefined;
    let ctx: CliServer | undefined;
    let home = '';
    beforeAll(async () => {
      listening = await startListening(kind, configOverrides);
    });
    beforeEach(async () => {
      ctx = await listening!.newAccount();
      home = await mkdtemp(join(tmpdir(), 'plinth-cli-test-'));
    });
    afterEach(async () => {
      if (home) await rm(home, { recursive: true, force: true });
    });
    afterAll(async () => {
      // An aborted fetch (a follow interrupted) leaves undici's fresh connection that never sends a
      // request, which Node does not count as idle: app.close would wait 70 s for its headers.
      listening?.server.app.server.closeAllConnections();
      await listening?.server.app.close();
      await listening?.server.store.close();
    });
    body(
      () => ctx!,
      () => home,
    );
  });
}

interface Listening {
  server: TestServer;
  /** Renames the previous test's account away and creates a new one under the served name. */
  newAccount(): Promise<CliServer>;
}

const ACCOUNT = 'clitest';

async function startListening(kind: StoreKind, configOverrides: Record<string, string>): Promise<Listening> {
  // No base domain: the CLI reaches the default account by IP, and links point at where it listens.
  const server = await startTestServer(kind, { ...configOverrides, PLINTH_TENANT: ACCOUNT, PLINTH_BASE_DOMAIN: '' });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let previous: number | undefined;
  return {
    server,
    async newAccount() {
      if (previous !== undefined) {
        await server.store.db
          .updateTable('account')
          .set({ name: `${ACCOUNT}-was-${previous}` })
          .where('id', '=', previous)
          .execute();
        // The account of 127.0.0.1 is cached by host; the next request must find the new one.
        server.services.accounts.forgetAll();
      }
      const account = await server.services.accounts.create(ACCOUNT);
      previous = account.id;
      return accountOn(server, { id: account.id, name: ACCOUNT }, url);
    },
  };
}

async function accountOn(server: TestServer, account: { id: number; name: string }, url: string): Promise<CliServer> {
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
  return {
    server,
    url,
    accountId: account.id,
    accountName: account.name,
    admin: await addUser('admin', 'admin@clitest.example.com'),
    member: await addUser('member', 'member@clitest.example.com'),
    addUser,
  };
}
