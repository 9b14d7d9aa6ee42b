import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../../', import.meta.url));

/** Packs real releases (0.1.0 and a fake newer one), installs with install.sh and updates with `plinth update`. */
describe('installer and update against a locally packed release', () => {
  let work = '';
  let releases = '';
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'plinth-install-'));
    releases = join(work, 'releases');
    execFileSync(process.execPath, [join(cli, 'scripts/release.mjs'), releases]);
    execFileSync(process.execPath, [join(cli, 'scripts/release.mjs'), releases, '--version', '0.99.0']);
  }, 180_000);
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string>) => ({
    PATH: process.env.PATH!,
    HOME: work,
    XDG_CONFIG_HOME: join(work, 'config'),
    PLINTH_RELEASE_URL: pathToFileURL(releases).toString(),
    PLINTH_NO_TELEMETRY: '1',
    ...extra,
  });

  it('4.8 rule 3: install.sh honours PLINTH_VERSION and PLINTH_INSTALL_DIR; update installs the latest', () => {
    const dir = join(work, 'opt');
    const out = execFileSync('sh', [join(cli, 'install.sh')], {
      env: env({ PLINTH_VERSION: '0.1.0', PLINTH_INSTALL_DIR: dir }),
    }).toString();
    expect(out).toContain(`Installed plinth 0.1.0 to ${dir}/bin/plinth`);
    const plinth = join(dir, 'bin', 'plinth');
    expect(execFileSync(plinth, ['--version'], { env: env({}) }).toString()).toBe('plinth 0.1.0\n');
    // Where it installed from is recorded, and is all `update` needs: no built-in address.
    expect(readFileSync(join(dir, 'release-url'), 'utf8')).toBe(`${pathToFileURL(releases)}\n`);
    const { PLINTH_RELEASE_URL: _unset, ...recorded } = env({});
    expect(execFileSync(plinth, ['update', '--check'], { env: recorded }).toString()).toBe('A new release is available: 0.1.0 → 0.99.0\n');
    expect(execFileSync(plinth, ['update', '--check'], { env: env({}) }).toString()).toBe('A new release is available: 0.1.0 → 0.99.0\n');
    expect(execFileSync(plinth, ['update'], { env: env({}) }).toString()).toBe(`Updated plinth 0.1.0 → 0.99.0 (${plinth})\n`);
    expect(execFileSync(plinth, ['--version'], { env: env({}) }).toString()).toBe('plinth 0.99.0\n');
    expect(execFileSync(plinth, ['update'], { env: env({}) }).toString()).toBe('plinth 0.99.0 is up to date\n');

    const latest = join(work, 'latest');
    execFileSync('sh', [join(cli, 'install.sh')], { env: env({ PLINTH_INSTALL_DIR: latest }) });
    expect(execFileSync(join(latest, 'bin', 'plinth'), ['--version']).toString()).toBe('plinth 0.99.0\n');
  });

  it('install.sh fails clearly for a release that does not exist', () => {
    let message = '';
    try {
      execFileSync('sh', [join(cli, 'install.sh')], {
        env: env({ PLINTH_VERSION: '7.7.7', PLINTH_INSTALL_DIR: join(work, 'none') }),
        stdio: 'pipe',
      });
    } catch (error) {
      message = String((error as { stderr: Buffer }).stderr);
    }
    expect(message).toContain('install.sh: no release 7.7.7');
  });

  it('install.sh names a release location it cannot read in one line, not a stack trace', () => {
    const missing = pathToFileURL(join(work, 'no-release')).toString();
    let message = '';
    try {
      execFileSync('sh', [join(cli, 'install.sh')], {
        env: env({ PLINTH_RELEASE_URL: missing, PLINTH_INSTALL_DIR: join(work, 'missing') }),
        stdio: 'pipe',
      });
    } catch (error) {
      message = String((error as { stderr: Buffer }).stderr);
    }
    expect(message).toMatch(new RegExp(`^install.sh: cannot read ${missing}/index.json: ENOENT[^\\n]*\\n$`));
  });

  it('release/ (where the README builds a release) is ignored by git', () => {
    const root = fileURLToPath(new URL('../../../../../', import.meta.url));
    expect(() => execFileSync('git', ['check-ignore', '-q', 'release/index.json'], { cwd: root })).not.toThrow();
  });

  it('install.sh without PLINTH_RELEASE_URL fetches nothing and says what to set', () => {
    const { PLINTH_RELEASE_URL: _unset, ...rest } = env({ PLINTH_INSTALL_DIR: join(work, 'unset') });
    let message = '';
    try {
      execFileSync('sh', [join(cli, 'install.sh')], { env: rest, stdio: 'pipe' });
    } catch (error) {
      message = String((error as { stderr: Buffer }).stderr);
    }
    expect(message).toBe('install.sh: set PLINTH_RELEASE_URL to the release location (index.json or the directory holding it)\n');
  });
});
