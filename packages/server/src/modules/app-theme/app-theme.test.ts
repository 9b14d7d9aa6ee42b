import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import { DEFAULT_APP_THEME } from './service.js';

const URL = '/api/v1/app-theme';
const put = (account: TestAccount, body: unknown) => account.request({ method: 'PUT', url: URL, as: account.admin, body });
const get = (account: TestAccount) => account.request({ method: 'GET', url: URL, as: account.member });
const FONT = { id: 'brand', url: 'https://cdn.example.com/brand.woff2', format: 'woff2', family: 'Brand Sans', name: 'Brand' };

describeOnStores('app theme', (server) => {
  it('getAppTheme answers the defaults when nothing was set', async () => {
    const account = await server().newAccount();
    const response = await get(account);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DEFAULT_APP_THEME);
  });

  it('updateAppTheme changes only what it names and returns the whole theme', async () => {
    const account = await server().newAccount();
    const first = await put(account, { applyThemeGlobally: true, light: { accentColor: '#ff0066' } });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      ...DEFAULT_APP_THEME,
      applyThemeGlobally: true,
      light: { ...DEFAULT_APP_THEME.light, accentColor: '#ff0066' },
    });

    const second = await put(account, {
      dark: { backgroundColor: 'hsl(240, 30%, 10%)', logoUrl: 'https://cdn.example.com/logo-dark.svg', contrast: 80 },
      typography: { fonts: [FONT], heading: { fontRef: 'brand' }, body: { fontRef: '"Open Sans", sans-serif', fontWeight: 300 } },
    });
    expect(second.status, second.text).toBe(200);
    const expected = {
      applyThemeGlobally: true,
      light: { ...DEFAULT_APP_THEME.light, accentColor: '#ff0066' },
      dark: {
        ...DEFAULT_APP_THEME.dark,
        backgroundColor: 'hsl(240, 30%, 10%)',
        logoUrl: 'https://cdn.example.com/logo-dark.svg',
        contrast: 80,
      },
      typography: {
        fonts: [FONT],
        heading: { ...DEFAULT_APP_THEME.typography.heading, fontRef: 'brand' },
        body: { fontRef: '"Open Sans", sans-serif', fontWeight: 300 },
      },
    };
    expect(second.body).toEqual(expected);
    expect((await get(account)).body).toEqual(expected);

    // fonts is replaced whole; the heading then names a family, which "brand" is as well.
    const third = await put(account, { typography: { fonts: [] } });
    expect(third.body.typography.fonts).toEqual([]);
    expect(third.body.light.accentColor).toBe('#ff0066');
  });

  it("is the account's own", async () => {
    const a = await server().newAccount();
    const b = await server().newAccount();
    await put(a, { light: { accentColor: '#000' } });
    expect((await get(b)).body).toEqual(DEFAULT_APP_THEME);
  });

  it('concurrent partial updates both land', async () => {
    const account = await server().newAccount();
    const results = await Promise.all([
      put(account, { light: { accentColor: '#111111' } }),
      put(account, { dark: { accentColor: '#222222' } }),
      put(account, { applyThemeGlobally: true }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const theme = (await get(account)).body;
    expect([theme.light.accentColor, theme.dark.accentColor, theme.applyThemeGlobally]).toEqual(['#111111', '#222222', true]);
  });

  it.each([
    [{ light: { accentColor: 'purple' } }, 'light.accentColor'],
    [{ dark: { foregroundColor: 'rgb(1, 2)' } }, 'dark.foregroundColor'],
    [{ light: { contrast: 101 } }, 'contrast'],
    [{ light: { logoUrl: 'javascript:alert(1)' } }, 'light.logoUrl'],
    [{ light: { logoUrl: 'https://x.example.com/a b.png' } }, 'light.logoUrl'],
    [{ typography: { body: { fontRef: 'Arial; color: red' } } }, 'typography.body.fontRef'],
    [{ typography: { heading: { fontWeight: 1001 } } }, 'fontWeight'],
    [{ typography: { fonts: [{ ...FONT, url: 'http://cdn.example.com/f.woff2' }] } }, 'typography.fonts[0].url'],
    [{ typography: { fonts: [FONT, { ...FONT }] } }, 'typography.fonts[1].id'],
    [{ typography: { fonts: [{ ...FONT, family: 'A, B' }] } }, 'typography.fonts[0].family'],
    [{ typography: { fonts: [{ ...FONT, format: 'svg' }] } }, 'format'],
    [{ typography: { fonts: [{ ...FONT, id: 'has space' }] } }, 'id'],
    [{ light: { accentColour: '#fff' } }, 'accentColour'],
    [{ typography: { body: { fontRef: 'Inter', weight: 400 } } }, 'weight'],
    [{ theme: 'dark' }, 'theme'],
    [{}, 'must not be empty'],
    [{ light: {} }, 'light'],
  ])('400 for %j, naming %s; nothing is stored', async (body, field) => {
    const account = await server().newAccount();
    const response = await put(account, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(field);
    expect((await get(account)).body).toEqual(DEFAULT_APP_THEME);
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
