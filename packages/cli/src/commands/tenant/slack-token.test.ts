import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth tenant slack-token', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

  it('sets the bot token from standard input, shows only whether one is set, and removes it', async () => {
    const token = 'xoxb-cli-1234567890-secret';
    const set = await plinth(['tenant', 'set-slack-token', '--token-stdin', '--json'], { env: env(), stdin: `${token}\n` });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ configured: true, updatedAt: expect.any(String) });
    expect(set.stdout).not.toContain(token);

    const shown = await plinth(['tenant', 'slack-token'], { env: env() });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/configured\s+true/i);
    expect(shown.stdout).not.toContain(token);

    const refused = await plinth(['tenant', 'set-slack-token', '--token', 'xoxp-user-token-123'], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: token must be a Slack bot token \(xoxb-…\): a user or app-level token cannot post as the bot \(HTTP 400\)/,
    );
    const missing = await plinth(['tenant', 'set-slack-token'], { env: env() });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--token-stdin or --token');

    const unset = await plinth(['tenant', 'unset-slack-token'], { env: env() });
    expect(unset.code, unset.stderr).toBe(0);
    const after = await plinth(['tenant', 'slack-token', '--json'], { env: env() });
    expect(JSON.parse(after.stdout)).toEqual({ configured: false, updatedAt: null });
  });
});
