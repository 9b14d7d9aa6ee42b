import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('delivery settings', () => {
  it('default to no mail server, Slack itself and the listening address', () => {
    expect(loadConfig({}).delivery).toEqual({
      smtpUrl: undefined,
      smtpFrom: undefined,
      slackApiUrl: 'https://slack.com/api',
      renderUrl: undefined,
    });
  });

  it('take an smtp(s) URL, a Slack base without its trailing slash and a render origin', () => {
    const config = loadConfig({
      PLINTH_SMTP_URL: 'smtps://u:p@mail.example.com:465',
      PLINTH_SMTP_FROM: 'Reports <r@example.com>',
      PLINTH_SLACK_API_URL: 'http://127.0.0.1:9000/api/',
      PLINTH_RENDER_URL: 'http://10.0.0.5:4000/',
    }).delivery;
    expect(config).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      smtpFrom: 'Reports <r@example.com>',
      slackApiUrl: 'http://127.0.0.1:9000/api',
      renderUrl: 'http://10.0.0.5:4000',
    });
  });

  it.each([
    ['PLINTH_SMTP_URL', 'mail.example.com', 'Invalid setting PLINTH_SMTP_URL: "mail.example.com" is not an smtp:// or smtps:// URL'],
    ['PLINTH_SLACK_API_URL', 'ftp://slack', 'Invalid setting PLINTH_SLACK_API_URL: "ftp://slack" is not an http:// or https:// URL'],
    [
      'PLINTH_RENDER_URL',
      'http://a:b@host:4000/path',
      'Invalid setting PLINTH_RENDER_URL: "http://***@host:4000/path" is not an http:// or https:// origin',
    ],
  ])('%s=%s is refused by name, without its password', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
