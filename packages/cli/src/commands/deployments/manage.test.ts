import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth deployments update, delete, settings, versions, steps; plinth regions (section 9)', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  const run = (args: string[]) => plinth(args, { env: env() });
  const json = async (args: string[]) => {
    const result = await run([...args, '--json']);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };
  const newDeployment = async () => String((await json(['deployments', 'create', '--name', 'v'])).id);

  it('rule 3: versions prints VERSION CHANNEL LATEST CURRENT PASS AS, the default channel head current', async () => {
    const id = await newDeployment();
    const table = await run(['deployments', 'versions', id]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toBe(
      [
        'VERSION  CHANNEL  LATEST  CURRENT  PASS AS',
        '1.3.0    latest   true    false    plinth/engine:v1.3.0',
        '1.2.0    latest   false   false    plinth/engine:v1.2.0',
        '1.2.0    release  true    true     plinth/engine:v1.2.0',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['1.3.0', '1.3.0'],
    ['v1.3.0', '1.3.0'],
    ['plinth/engine:v1.3.0', '1.3.0'],
  ])('rule 4: --release-channel-version %s is accepted and resolves the image', async (given, version) => {
    const id = await newDeployment();
    // 1.3.0 is only on the latest channel, so the change names it.
    const updated = await json(['deployments', 'update', id, '--release-channel', 'latest', '--release-channel-version', given]);
    expect(updated).toMatchObject({ releaseChannel: 'latest', releaseChannelVersion: version, image: `plinth/engine:v${version}` });
    const current = (await json(['deployments', 'versions', id])).items.filter((v: { current: boolean }) => v.current);
    expect(current).toEqual([{ version, channel: 'latest', latest: true, current: true, passAs: `plinth/engine:v${version}` }]);
  });

  it.each([
    ['9.9.9', 'Version 9.9.9 is not offered on channel release; offered: 1.2.0'],
    ['1.3.0', 'Version 1.3.0 is not offered on channel release; offered: 1.2.0'],
    ['other/engine:v1.2.0', 'releaseChannelVersion "other/engine:v1.2.0" is not a version'],
    ['plinth/engine:1.2.0', 'releaseChannelVersion "plinth/engine:1.2.0" is not a version'],
    ['vv1.2.0', 'is not a version'],
    ['latest', 'is not a version'],
  ])('rule 4: --release-channel-version %s is refused', async (given, message) => {
    const id = await newDeployment();
    const result = await run(['deployments', 'update', id, '--release-channel-version', given]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect((await json(['deployments', 'settings', id])).releaseChannelVersion).toBe('1.2.0');
  });

  it("rule 4: --release-channel moves to that channel's latest; an unknown channel is refused", async () => {
    const id = await newDeployment();
    const moved = await run(['deployments', 'update', id, '--release-channel', 'latest']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/^releaseChannel +latest$/m);
    expect(moved.stdout).toMatch(/^releaseChannelVersion +1\.3\.0$/m);
    const back = await json(['deployments', 'update', id, '--release-channel', 'release']);
    expect(back).toMatchObject({ releaseChannel: 'release', releaseChannelVersion: '1.2.0' });
    const unknown = await run(['deployments', 'update', id, '--release-channel', 'nightly']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('releaseChannel "nightly" is not a channel of this server; channels: latest, release');
  });

  it('rule 5: settings shows every setting, version and channel in effect included; -d sets deployMode; unknown fields are refused', async () => {
    const id = await newDeployment();
    expect((await run(['deployments', 'update', id, '-d', '{"deployMode": "cli", "creationMethod": "github"}', '--name', 'w'])).code).toBe(
      0,
    );
    const settings = await run(['deployments', 'settings', id]);
    expect(settings.code, settings.stderr).toBe(0);
    for (const line of [
      /^name +w$/m,
      /^deployMode +cli$/m,
      /^creationMethod +github$/m,
      /^releaseChannel +release$/m,
      /^releaseChannelVersion +1\.2\.0$/m,
      /^image +plinth\/engine:v1\.2\.0$/m,
    ]) {
      expect(settings.stdout).toMatch(line);
    }
    const unknown = await run(['deployments', 'update', id, '-d', '{"colour": "red"}']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown property "colour"');
  });

  it('advance-step and reset-step move through the creation steps; delete removes the deployment', async () => {
    const id = await newDeployment();
    const steps: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await run(['deployments', 'advance-step', id]);
      expect(result.code, result.stderr).toBe(0);
      steps.push(result.stdout.trim().split(' ').pop()!);
    }
    expect(steps).toEqual(['project', 'upload', 'databases', 'schema', 'ready']);
    const past = await run(['deployments', 'advance-step', id]);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('already at its last creation step');
    expect((await run(['deployments', 'reset-step', id])).stdout).toBe(`Deployment ${id} is at creation step project\n`);

    const deleted = await run(['deployments', 'delete', id]);
    // The status line goes to stderr only when it is a terminal.
    expect(deleted).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const gone = await run(['deployments', 'get', id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`Deployment ${id} not found`);
  });

  it('regions lists the regions; create in another region is refused', async () => {
    expect(await run(['regions'])).toMatchObject({ code: 0, stdout: 'NAME\nlocal\n' });
    const refused = await run(['deployments', 'create', '--name', 'x', '--region', 'mars']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Unknown region "mars"; regions: local');
  });
});
