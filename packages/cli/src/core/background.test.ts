import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../test-support/harness.js';
import { runBackgroundJob } from './background.js';
import { compareVersions, NO_RELEASE_SOURCE } from './releases.js';

describeCli('plinth telemetry and update check', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey, PLINTH_NO_UPDATE_CHECK: '1' });

  it('5: sends command group, outcome, version, platform and a hashed machine id to the server, which stores it', async () => {
    const ok = await plinth(['deployments', 'list'], { env: env() });
    const failed = await plinth(['deployments', 'get', '424242'], { env: env() });
    const jobs = [...ok.jobs, ...failed.jobs];
    expect(jobs).toHaveLength(2);
    expect(jobs[0]).toMatchObject({
      kind: 'telemetry',
      url: `${ctx().url}/api/v1/telemetry`,
      event: { command: 'deployments', success: true, platform: expect.stringMatching(/^linux-/) },
    });
    const machine = (jobs[0] as unknown as { event: { machineId: string } }).event.machineId;
    expect(machine).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(jobs)).not.toContain(ctx().admin.apiKey);
    for (const job of jobs) await runBackgroundJob(job);
    expect(await ctx().server.services.telemetry.summary(ctx().accountId)).toEqual([
      { command: 'deployments', success: false, count: 1 },
      { command: 'deployments', success: true, count: 1 },
    ]);
  });

  it.each([['PLINTH_NO_TELEMETRY'], ['PLINTH_TELEMETRY_DISABLED'], ['CI']])('5: %s turns telemetry off', async (variable) => {
    const result = await plinth(['deployments', 'list'], { env: { ...env(), [variable]: '1' } });
    expect(result.jobs).toEqual([]);
  });

  it('4.8 rule 2: checks a local release source in the background, at most daily, with a notice on a terminal only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plinth-releases-'));
    await writeFile(
      join(dir, 'index.json'),
      JSON.stringify({ latest: '9.0.0', releases: { '9.0.0': { tarball: 'plinth-cli-9.0.0.tgz' } } }),
    );
    const source = pathToFileURL(dir).toString();
    const withUpdates = {
      PLINTH_API_URL: ctx().url,
      PLINTH_API_KEY: ctx().admin.apiKey,
      PLINTH_RELEASE_URL: source,
      PLINTH_NO_TELEMETRY: '1',
    };
    const first = await plinth(['deployments', 'list'], { env: withUpdates, stderrIsTTY: true });
    expect(first.jobs).toEqual([{ kind: 'update-check', releaseUrl: source, cacheFile: join(home(), 'plinth', 'update-check.json') }]);
    expect(first.stderr).not.toContain('new release');
    await runBackgroundJob(first.jobs[0]!);

    const second = await plinth(['deployments', 'list'], { env: withUpdates, stderrIsTTY: true });
    expect(second.jobs).toEqual([]);
    expect(second.stderr).toContain('A new release of plinth is available: 0.1.0 → 9.0.0\nRun `plinth update` to install it.\n');
    const piped = await plinth(['deployments', 'list'], { env: withUpdates, stderrIsTTY: false });
    expect(piped.stderr).not.toContain('new release');
    const off = await plinth(['deployments', 'list'], { env: { ...withUpdates, CI: 'true' }, stderrIsTTY: true });
    expect(off.stderr).not.toContain('new release');

    const check = await plinth(['update', '--check'], { env: withUpdates });
    expect(check).toMatchObject({ code: 0, stdout: 'A new release is available: 0.1.0 → 9.0.0\n' });
    const unreachable = await plinth(['update', '--check'], {
      env: { ...withUpdates, PLINTH_RELEASE_URL: pathToFileURL(join(dir, 'missing')).toString() },
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^error: Cannot read the release index at file:/);
  });

  it('4: with no release location configured, no request goes anywhere and `update --check` says the check is off', async () => {
    const quiet = { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey, PLINTH_NO_TELEMETRY: '1' };
    const command = await plinth(['deployments', 'list'], { env: quiet, stderrIsTTY: true });
    expect(command.code).toBe(0);
    expect(command.jobs).toEqual([]);
    const check = await plinth(['update', '--check'], { env: quiet });
    expect(check).toMatchObject({ code: 0, stdout: `${NO_RELEASE_SOURCE}\n`, jobs: [] });
    expect(JSON.parse((await plinth(['update', '--check', '--json'], { env: quiet })).stdout)).toEqual({
      current: '0.1.0',
      updateCheck: 'off',
    });
    const update = await plinth(['update'], { env: quiet });
    expect(update.code).toBe(1);
    expect(update.stderr).toBe(
      'error: No release location is configured\nhint: Set PLINTH_RELEASE_URL to your release location (a release index or the directory holding index.json).\n',
    );
  });

  it('4: the location install.sh recorded is where the check and `update` look', async () => {
    const root = await mkdtemp(join(tmpdir(), 'plinth-installed-'));
    const dir = await mkdtemp(join(tmpdir(), 'plinth-releases-'));
    await writeFile(
      join(dir, 'index.json'),
      JSON.stringify({ latest: '9.1.0', releases: { '9.1.0': { tarball: 'plinth-cli-9.1.0.tgz' } } }),
    );
    await writeFile(join(root, 'release-url'), `${pathToFileURL(dir)}\n`);
    const installed = {
      PLINTH_API_URL: ctx().url,
      PLINTH_API_KEY: ctx().admin.apiKey,
      PLINTH_NO_TELEMETRY: '1',
      PLINTH_INSTALL_DIR: root,
      XDG_CONFIG_HOME: join(root, 'config'),
    };
    const command = await plinth(['deployments', 'list'], { env: installed });
    expect(command.jobs).toEqual([
      { kind: 'update-check', releaseUrl: pathToFileURL(dir).toString(), cacheFile: join(root, 'config', 'plinth', 'update-check.json') },
    ]);
    expect(await plinth(['update', '--check'], { env: installed })).toMatchObject({
      code: 0,
      stdout: 'A new release is available: 0.1.0 → 9.1.0\n',
    });
  });

  it('compares versions numerically', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBe(1);
    expect(compareVersions('v1.2.0', '1.2.0')).toBe(0);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBe(-1);
  });
});
