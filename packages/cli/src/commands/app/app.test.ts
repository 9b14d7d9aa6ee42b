import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth app theme', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });

  it('get shows the defaults; set changes only what the flags and -d name; --json passes the answer through', async () => {
    const before = await plinth(['app', 'theme', 'get', '--json'], { env: env(ctx().member.apiKey) });
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toMatchObject({ applyThemeGlobally: false, typography: { fonts: [] } });

    const font = { id: 'brand', url: 'https://cdn.example.com/brand.woff2', format: 'woff2' };
    const set = await plinth(
      [
        'app',
        'theme',
        'set',
        '--light-accent-color',
        '#ff0066',
        '--dark-contrast',
        '70',
        '--apply-globally',
        'true',
        '--heading-font',
        'brand',
        '--heading-weight',
        '700',
        '-d',
        JSON.stringify({ typography: { fonts: [font] } }),
        '--json',
      ],
      { env: env() },
    );
    expect(set.code, set.stderr).toBe(0);
    const theme = JSON.parse(set.stdout);
    expect(theme).toMatchObject({
      applyThemeGlobally: true,
      light: { accentColor: '#ff0066', backgroundColor: before.stdout && JSON.parse(before.stdout).light.backgroundColor },
      dark: { contrast: 70 },
      typography: { fonts: [font], heading: { fontRef: 'brand', fontWeight: 700 } },
    });

    const shown = await plinth(['app', 'theme', 'get'], { env: env() });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/applyThemeGlobally\s+true/);
    expect(shown.stdout).toMatch(/"accentColor":"#ff0066"/);
  });

  it('the server names a bad colour; a member is refused; usage errors exit 2', async () => {
    const bad = await plinth(['app', 'theme', 'set', '--dark-accent-color', 'purple'], { env: env() });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/dark\.accentColor/);
    const member = await plinth(['app', 'theme', 'set', '--apply-globally', 'true'], { env: env(ctx().member.apiKey) });
    expect(member.code).toBe(1);
    expect(member.stderr).toMatch(/requires the admin role \(HTTP 403\)/);
    for (const argv of [
      ['app', 'theme', 'set'],
      ['app', 'theme', 'set', '--apply-globally', 'maybe'],
      ['app', 'theme', 'set', '--body-weight', 'bold'],
    ]) {
      const usage = await plinth(argv, { env: env() });
      expect(usage.code, argv.join(' ')).toBe(2);
    }
  });
});
