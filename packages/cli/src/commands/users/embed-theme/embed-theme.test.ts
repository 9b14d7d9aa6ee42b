import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../../test-support/harness.js';

describeCli('plinth users embed-theme and the new user fields', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });
  const theme = async () => JSON.parse((await plinth(['users', 'embed-theme', 'get', '--json'], { env: env() })).stdout);

  it('set changes only what the flags name, none unsets one property, --reset all of them', async () => {
    expect(await theme()).toEqual({ primaryColor: null, font: null, chat: null, analyticsChat: null });
    const first = await plinth(['users', 'embed-theme', 'set', '--primary-color', '#1a73e8', '--font', 'Inter, sans-serif'], {
      env: env(),
    });
    expect(first.code, first.stderr).toBe(0);
    const second = await plinth(['users', 'embed-theme', 'set', '--analytics-input-border-color', 'rgb(0, 0, 0)', '--font', 'none'], {
      env: env(),
    });
    expect(second.code, second.stderr).toBe(0);
    expect(await theme()).toEqual({
      primaryColor: '#1a73e8',
      font: null,
      chat: null,
      analyticsChat: { backgroundColor: null, chatInput: { backgroundColor: null, borderColor: 'rgb(0, 0, 0)' } },
    });
    const shown = await plinth(['users', 'embed-theme', 'get'], { env: env(ctx().member.apiKey) });
    expect(shown.stdout).toMatch(/primaryColor\s+#1a73e8/);

    const reset = await plinth(['users', 'embed-theme', 'set', '--reset'], { env: env() });
    expect(reset.code, reset.stderr).toBe(0);
    expect(await theme()).toEqual({ primaryColor: null, font: null, chat: null, analyticsChat: null });
  });

  it('a bad font is refused by the server naming the field; usage errors exit 2', async () => {
    const bad = await plinth(['users', 'embed-theme', 'set', '--font', 'Arial; color: red'], { env: env() });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/font/);
    expect((await plinth(['users', 'embed-theme', 'set'], { env: env() })).code).toBe(2);
    expect((await plinth(['users', 'embed-theme', 'set', '--reset', '--font', 'Inter'], { env: env() })).code).toBe(2);
  });

  it('users update sets the names and title; users list and me show them', async () => {
    const member = String(ctx().member.id);
    const updated = await plinth(['users', 'update', member, '--first-name', 'Mia', '--last-name', 'Berg', '--title', 'Analyst'], {
      env: env(),
    });
    expect(updated.code, updated.stderr).toBe(0);
    const listed = await plinth(['users', 'list'], { env: env() });
    expect(listed.stdout).toMatch(/TITLE/);
    expect(listed.stdout).toMatch(/LAST LOGIN/);
    expect(listed.stdout).toMatch(/Analyst/);
    const me = await plinth(['users', 'me', '--json'], { env: env(ctx().member.apiKey) });
    expect(JSON.parse(me.stdout)).toMatchObject({
      firstName: 'Mia',
      lastName: 'Berg',
      title: 'Analyst',
      isAdmin: false,
      isDeactivated: false,
    });
  });
});
