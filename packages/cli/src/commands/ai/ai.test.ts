import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth ai', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });

  it('settings, settings-set, region and region-set', async () => {
    const shown = await plinth(['ai', 'settings', '--json'], { env: env(ctx().member.apiKey) });
    expect(shown.code, shown.stderr).toBe(0);
    // An API key gets no token: it may be narrower than its user.
    expect(JSON.parse(shown.stdout)).toMatchObject({ url: `${ctx().url}/api/v1`, token: '', enabled: true, tokenTtlSeconds: 900 });

    const set = await plinth(['ai', 'settings-set', '--enabled', 'false', '--token-ttl', '300', '--json'], { env: env() });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ enabled: false, tokenTtlSeconds: 300 });
    const refused = await plinth(['ai', 'settings-set', '--enabled', 'true'], { env: env(ctx().member.apiKey) });
    expect(refused.code).toBe(1);
    const table = await plinth(['ai', 'settings'], { env: env() });
    expect(table.stdout).toMatch(/Token lifetime \(s\)\s+300/);

    const region = await plinth(['ai', 'region', '--json'], { env: env() });
    expect(JSON.parse(region.stdout)).toMatchObject({ userId: ctx().admin.id, regionName: 'local', createdAt: null });
    const chosen = await plinth(['ai', 'region-set', 'local', '--json'], { env: env() });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(JSON.parse(chosen.stdout).createdAt).not.toBeNull();
    const unknown = await plinth(['ai', 'region-set', 'mars'], { env: env() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/regionName "mars" is not a region here; regions: local/);
  });

  it('usage errors exit 2', async () => {
    const result = await plinth(['ai', 'settings-set', '--token-ttl', 'soon'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--token-ttl expects a whole number/);
  });
});
