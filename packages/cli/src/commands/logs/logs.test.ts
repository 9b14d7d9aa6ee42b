import { expect, it } from 'vitest';
import type { Schema } from '@plinth/api-client';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth logs', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().member.apiKey });

  /** A deployment of the test's account, and a way to write its log lines as a build would (fields as the API shows them). */
  async function deployment() {
    const { server, accountId } = ctx();
    const { id } = await server.services.deployments.create(accountId, { name: 'd' }, ctx().url);
    const append = (message: string, more: Partial<Pick<Schema<'DeploymentLogLine'>, 'source' | 'pod' | 'container' | 'level'>> = {}) =>
      server.services.deploymentLogs.append({
        accountId,
        deploymentId: id,
        source: 'production',
        pod: 'pod-1',
        container: 'builder',
        level: 'info',
        message,
        ...more,
      });
    return { id, append };
  }

  const at = '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z';

  it('prints each line as time  source/container  [level] message, oldest first, filtered as asked', async () => {
    const { id, append } = await deployment();
    await append('compiling 3 cubes');
    await append('dev build', { source: 'dev', pod: 'pod-2' });
    await append('model/cubes/orders.yml:3:1 unknown member', { level: 'error' });
    await append('a query', { container: 'query' });

    const all = await plinth(['logs', String(id)], { env: env() });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(
      new RegExp(
        `^${at}  production/builder  \\[info\\] compiling 3 cubes\\n` +
          `${at}  dev/builder  \\[info\\] dev build\\n` +
          `${at}  production/builder  \\[error\\] model/cubes/orders.yml:3:1 unknown member\\n` +
          `${at}  production/query  \\[info\\] a query\\n$`,
      ),
    );
    const cases: Array<[string[], string[]]> = [
      [['--source', 'dev'], ['dev build']],
      [['--pod', 'pod-2'], ['dev build']],
      [['-c', 'query'], ['a query']],
      [
        ['--container', 'builder', '--source', 'production'],
        ['compiling 3 cubes', 'model/cubes/orders.yml:3:1 unknown member'],
      ],
    ];
    for (const [flags, messages] of cases) {
      const result = await plinth(['logs', String(id), ...flags, '--json'], { env: env() });
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(
        lines.map((line) => line.message),
        flags.join(' '),
      ).toEqual(messages);
    }
  });

  it('--json prints one object per line; no lines say so on stderr; bad input is refused', async () => {
    const { id, append } = await deployment();
    const empty = await plinth(['logs', String(id)], { env: env() });
    expect(empty).toMatchObject({ code: 0, stdout: '', stderr: 'No results\n' });
    await append('one');
    const json = await plinth(['logs', String(id), '--json'], { env: env() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      source: 'production',
      pod: 'pod-1',
      container: 'builder',
      level: 'info',
      buildId: null,
      message: 'one',
    });

    expect(await plinth(['logs', String(id), '--source', 'staging'], { env: env() })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("'staging' is invalid"),
    });
    // -c is --container here; the global --context keeps its long form.
    expect(await plinth(['logs', String(id), '--context', 'nowhere'], { env: env() })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('No context named "nowhere"'),
    });
    expect(await plinth(['logs', 'abc'], { env: env() })).toMatchObject({ code: 2, stderr: expect.stringContaining('deployment_id') });
    const missing = await plinth(['logs', '424242'], { env: env() });
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('error: Deployment 424242 not found (HTTP 404)') });
  });

  it('--follow prints the backlog, then a line written while it runs, until interrupted (exit 0)', async () => {
    const { id, append } = await deployment();
    await append('before');
    const interrupt = new AbortController();
    let printed = '';
    let wake = () => {};
    const following = plinth(['logs', String(id), '--follow', '--source', 'production'], {
      env: env(),
      interrupt: interrupt.signal,
      onStdout: (text) => {
        printed = text;
        wake();
      },
    });
    const until = async (pattern: RegExp) => {
      while (!pattern.test(printed)) await new Promise<void>((resolve) => (wake = resolve));
    };
    await until(/before\n$/);
    await append('left out', { source: 'dev' });
    await append('after');
    await until(/after\n$/);
    interrupt.abort();
    const result = await following;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(
      new RegExp(`^${at}  production/builder  \\[info\\] before\\n${at}  production/builder  \\[info\\] after\\n$`),
    );
    // The server saw the client go and stopped polling for it.
    for (let i = 0; i < 100 && ctx().server.services.deploymentLogs.follows.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(ctx().server.services.deploymentLogs.follows.size).toBe(0);
  });

  it('--follow --json prints the line objects as they come', async () => {
    const { id, append } = await deployment();
    const interrupt = new AbortController();
    let printed = '';
    const following = plinth(['logs', String(id), '--follow', '--json'], {
      env: env(),
      interrupt: interrupt.signal,
      onStdout: (text) => {
        printed = text;
        if (printed.includes('"later"')) interrupt.abort();
      },
    });
    while (ctx().server.services.deploymentLogs.follows.size === 0) await new Promise((r) => setTimeout(r, 10));
    await append('later');
    const result = await following;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ message: 'later', source: 'production' });
  });
});
