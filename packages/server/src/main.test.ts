import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT } from './test-support/built.js';
import { startServerProcess } from './test-support/server-process.js';

const MAIN = BUILT.server;

/** Runs `plinth-server <args>` to its end: an operator command. */
async function runBinary(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { PATH: process.env.PATH!, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

// Each test starts real server processes, several of them slow to boot on a loaded machine.
describe('plinth-server process (issue 2 points 2, 4, 11)', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-main-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts on the embedded defaults, prints the key once, serves it, and keeps secrets out of its logs', async () => {
    const server = await startServerProcess({ PLINTH_DATA_DIR: dataDir });
    try {
      const saved = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8'));
      expect(statSync(join(dataDir, 'bootstrap.json')).mode & 0o777).toBe(0o600);
      expect(saved.tenant).toBe('demo');
      // The key follows the ready line in a write of its own.
      await server.waitFor(`Admin API key (shown once): ${saved.apiKey}`);
      expect(server.output()).toContain(`Admin API key (shown once): ${saved.apiKey}`);

      const headers = { authorization: `Api-Key ${saved.apiKey}`, 'content-type': 'application/json' };
      const base = `http://127.0.0.1:${server.port}`;
      const created = await fetch(`${base}/api/v1/api-keys`, { method: 'POST', headers, body: JSON.stringify({ name: 'x' }) });
      expect(created.status).toBe(201);
      const { key } = (await created.json()) as { key: string };
      const integration = await fetch(`${base}/api/v1/oauth-integrations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'n',
          type: 't',
          authUrl: 'https://a.example.com',
          tokenUrl: 'https://a.example.com/t',
          clientId: 'c',
          clientSecret: 'client-secret-value',
          redirectUri: 'https://a.example.com/r',
        }),
      });
      expect(integration.status).toBe(201);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);

      // Log lines are buffered; a normal stop writes every one of them out.
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const logLines = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      const requestLines = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
      expect(requestLines.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(
        expect.arrayContaining(['POST /api/v1/api-keys 201', 'POST /api/v1/oauth-integrations 201', 'GET /healthz 200']),
      );
      for (const secret of [saved.apiKey, key, 'client-secret-value']) {
        expect(logLines.join('\n')).not.toContain(secret);
      }
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('on restart with the same data dir creates nothing and prints no key', async () => {
    const server = await startServerProcess({ PLINTH_DATA_DIR: dataDir });
    try {
      expect((await fetch(`http://127.0.0.1:${server.port}/readyz`)).status).toBe(200);
      expect(server.output()).not.toContain('Admin API key');
      // Every start says where it is ready, not only the first (issue 10, newcomer 9).
      expect(server.output()).toContain(`Plinth is ready at http://127.0.0.1:${server.port} (account "demo").\n`);
      // Buffered log lines still reach the log while the server runs, not only when it stops.
      await server.waitFor('"path":"/readyz"');
      expect(server.output()).toContain('"path":"/readyz"');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('SIGTERM finishes the request in flight with its real response, then exits 0', async () => {
    // A grace period longer than the test, so the request is finished rather than cut.
    const server = await startServerProcess({ PLINTH_DATA_DIR: dataDir, PLINTH_SHUTDOWN_GRACE_MS: '600000' });
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { apiKey: string };
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const body = JSON.stringify({ name: 'in flight' });
    // Headers and half the body now, the rest only once the server is shutting down. An authorised
    // request's handler waits for the whole body, so its answer cannot be written before SIGTERM.
    // With Expect, the server answers 100 Continue once it has taken the request in hand.
    socket.write(
      `POST /api/v1/deployments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Api-Key ${apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n` +
        body.slice(0, 5),
    );
    await new Promise<void>((resolve) => socket.on('data', () => reply.includes('100 Continue') && resolve()));
    server.child.kill('SIGTERM');
    await server.waitFor('finishing in-flight requests');
    expect(server.output()).toContain('finishing in-flight requests');
    expect(reply).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    socket.write(body.slice(5));
    await closed;
    expect(reply).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n{') + 4))).toMatchObject({ name: 'in flight' });
    expect(await server.exited).toBe(0);
  });

  it('SIGTERM closes idle keep-alive connections at once, and cuts a request that never finishes after the grace period', async () => {
    const server = await startServerProcess({ PLINTH_DATA_DIR: dataDir, PLINTH_SHUTDOWN_GRACE_MS: '300' });
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { apiKey: string };
    const open = async () => {
      const socket = connect(server.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
      let reply = '';
      socket.on('data', (chunk) => (reply += chunk));
      return { socket, reply: () => reply, closed: new Promise<void>((resolve) => socket.on('close', () => resolve())) };
    };
    // A keep-alive connection, idle after its answer.
    const idle = await open();
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise<void>((resolve) => idle.socket.on('data', () => idle.reply().includes('\r\n\r\n') && resolve()));
    // A client that sends half its body and then nothing.
    const stuck = await open();
    stuck.socket.write(
      `POST /api/v1/deployments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Api-Key ${apiKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n{"na',
    );
    await new Promise<void>((resolve) => stuck.socket.on('data', () => stuck.reply().includes('100 Continue') && resolve()));
    server.child.kill('SIGTERM');
    await idle.closed;
    expect(await server.exited).toBe(0);
    await stuck.closed;
    expect(server.output()).toContain('cutting the connections of requests still open after the grace period');
  });

  it('a second server, or an accounts command, on a data dir in use refuses with one line naming it and the holder (issue 10, security 2)', async () => {
    const first = await startServerProcess({ PLINTH_DATA_DIR: dataDir });
    const refusal =
      `plinth-server: The data directory ${dataDir} is in use by process ${first.child.pid} (lock file ${join(dataDir, 'plinth.lock')}); ` +
      'stop it first, or use PostgreSQL (DATABASE_URL) to run several servers';
    try {
      const second = await startServerProcess({ PLINTH_DATA_DIR: dataDir });
      expect(await second.exited).toBe(1);
      expect(second.output().trim()).toBe(refusal);
      const command = await runBinary(['accounts', 'list'], { PLINTH_DATA_DIR: dataDir });
      expect(command).toEqual({ code: 1, stdout: '', stderr: `${refusal}\n` });
      expect((await fetch(`http://127.0.0.1:${first.port}/readyz`)).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
    expect(existsSync(join(dataDir, 'plinth.lock'))).toBe(false);
  });

  it('accounts create prints a working admin key once; an unknown PLINTH_TENANT then stops the server with one line (issue 10, accounts)', async () => {
    const created = await runBinary(['accounts', 'create', 'acme'], { PLINTH_DATA_DIR: dataDir });
    expect(created.code, created.stderr).toBe(0);
    const key = /Admin API key \(shown once\): (sk-\w+)/.exec(created.stdout)?.[1];
    expect(key).toBeDefined();
    const listed = await runBinary(['accounts', 'list'], { PLINTH_DATA_DIR: dataDir });
    expect(listed.stdout).toMatch(/^acme +active /m);
    expect(listed.stdout).not.toContain(key);

    const unknown = await startServerProcess({ PLINTH_DATA_DIR: dataDir, PLINTH_TENANT: 'acmee' });
    expect(await unknown.exited).toBe(2);
    expect(unknown.output().trim()).toBe(
      'plinth-server: PLINTH_TENANT "acmee" names no account in this store (it has demo, acme); ' +
        'create it with `plinth-server accounts create acmee` or set PLINTH_TENANT to an existing account',
    );
    const server = await startServerProcess({ PLINTH_DATA_DIR: dataDir, PLINTH_TENANT: 'acme' });
    try {
      expect(server.output()).toContain(`Plinth is ready at http://127.0.0.1:${server.port} (account "acme").`);
      const me = await fetch(`http://127.0.0.1:${server.port}/api/v1/users/me`, { headers: { authorization: `Api-Key ${key}` } });
      expect(me.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('a bad setting stops the server at start with one line naming it', async () => {
    const server = await startServerProcess({ PLINTH_DATA_DIR: dataDir, PORT: 'not-a-port' });
    expect(await server.exited).toBe(2);
    expect(server.output().trim()).toBe('plinth-server: Invalid setting PORT: "not-a-port" is not a whole number');
  });
});
