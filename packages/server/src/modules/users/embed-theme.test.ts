import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { embedThemeCases } from './authorization.cases.js';

const URL = '/api/v1/users/embed-theme';
const put = (account: TestAccount, body: unknown) => account.request({ method: 'PUT', url: URL, as: account.admin, body });
const get = (account: TestAccount) => account.request({ method: 'GET', url: URL, as: account.member });
const UNSET = { primaryColor: null, font: null, chat: null, analyticsChat: null };

describeOnStores('users admin: embed theme', (server) => {
  it('is unset until an admin sets it; members read it', async () => {
    const account = await server().newAccount();
    const response = await get(account);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(UNSET);
  });

  it('updateEmbedTheme replaces the theme whole; null or omitted is not set; {} clears it', async () => {
    const account = await server().newAccount();
    const theme = {
      primaryColor: '#1a73e8',
      font: '"Open Sans", Arial, sans-serif',
      chat: { inputColor: 'rgba(0, 0, 0, 0.5)' },
      analyticsChat: { backgroundColor: 'hsl(210, 40%, 98%)', chatInput: { backgroundColor: '#fff', borderColor: null } },
    };
    const set = await put(account, theme);
    expect(set.status, set.text).toBe(200);
    const expected = { ...theme, analyticsChat: { ...theme.analyticsChat, chatInput: { backgroundColor: '#fff', borderColor: null } } };
    expect(set.body).toEqual(expected);
    expect((await get(account)).body).toEqual(expected);

    const replaced = await put(account, { primaryColor: '#00ff0080', chat: { inputColor: null } });
    expect(replaced.body).toEqual({ ...UNSET, primaryColor: '#00ff0080' });
    expect((await get(account)).body).toEqual({ ...UNSET, primaryColor: '#00ff0080' });

    expect((await put(account, {})).body).toEqual(UNSET);
    expect((await get(account)).body).toEqual(UNSET);
  });

  it("is the account's own: another account's theme stays unset", async () => {
    const a = await server().newAccount();
    const b = await server().newAccount();
    await put(a, { primaryColor: '#123' });
    expect((await get(b)).body).toEqual(UNSET);
  });

  it.each([
    [{ primaryColor: 'red' }, 'primaryColor'],
    [{ primaryColor: '#12345' }, 'primaryColor'],
    [{ primaryColor: 'rgb(300, 0, 0)' }, 'primaryColor'],
    [{ primaryColor: '#fff;background:url(x)' }, 'primaryColor'],
    [{ chat: { inputColor: 'hsl(10, 200%, 50%)' } }, 'chat.inputColor'],
    [{ analyticsChat: { chatInput: { borderColor: 'blue' } } }, 'analyticsChat.chatInput.borderColor'],
    [{ font: 'Arial; color: red' }, 'font'],
    [{ font: '"Open Sans' }, 'font'],
    [{ font: 'a,b,c,d,e,f,g,h,i,j,k' }, 'font'],
    [{ font: '' }, 'font'],
    [{ primaryColour: '#fff' }, 'primaryColour'],
    [{ chat: { inputColour: '#fff' } }, 'inputColour'],
  ])('400 for %j, naming %s', async (body, field) => {
    const account = await server().newAccount();
    const response = await put(account, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(field);
    expect((await get(account)).body).toEqual(UNSET);
  });

  describe('authorisation', () => {
    authorizationSuite(server, embedThemeCases);
  });
});
