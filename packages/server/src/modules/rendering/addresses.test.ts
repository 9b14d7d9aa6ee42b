import { describe, expect, it } from 'vitest';
import type { AccountRow } from '../../store/schema.js';
import { testConfig } from '../../test-support/server.js';
import { accountHost, onHost, renderOrigin } from './addresses.js';
import { RenderError } from './errors.js';

const account = (name: string, customDomain: string | null = null) => ({ name, custom_domain: customDomain }) as AccountRow;

describe('where the rendering browser goes', () => {
  it('PLINTH_RENDER_URL first, else the listening address, a wildcard one on loopback', () => {
    expect(renderOrigin(testConfig({ PLINTH_RENDER_URL: 'http://10.0.0.5:4000' }), undefined).href).toBe('http://10.0.0.5:4000/');
    expect(renderOrigin(testConfig(), { address: '0.0.0.0', family: 'IPv4', port: 4000 }).href).toBe('http://127.0.0.1:4000/');
    expect(renderOrigin(testConfig(), { address: '::', family: 'IPv6', port: 4000 }).href).toBe('http://[::1]:4000/');
  });

  it('a process serving no HTTP without PLINTH_RENDER_URL cannot render, and says what to set', () => {
    const error = (() => {
      try {
        renderOrigin(testConfig(), undefined);
      } catch (e) {
        return e as RenderError;
      }
    })();
    expect(error).toBeInstanceOf(RenderError);
    expect([error!.retryable, error!.message]).toEqual([
      false,
      'This process serves no HTTP, so rendering needs PLINTH_RENDER_URL: the address of a server of this installation',
    ]);
  });

  it("opens the account's own host: under the base domain, its custom domain, or any host for the default account", () => {
    const origin = new URL('http://127.0.0.1:4000');
    expect(accountHost(testConfig(), account('acme'), origin)).toBe('acme.plinth.test');
    const noBase = { ...testConfig(), baseDomain: undefined };
    expect(accountHost(noBase, account('acme', 'analytics.acme.com'), origin)).toBe('analytics.acme.com');
    expect(accountHost(noBase, account('demo'), origin)).toBe('127.0.0.1');
    expect(() => accountHost(noBase, account('acme'), origin)).toThrow(
      'Account acme has no host of its own to render on: set PLINTH_BASE_DOMAIN or its custom domain',
    );
    expect(onHost(origin, 'acme.plinth.test')).toBe('http://acme.plinth.test:4000');
    expect(onHost(new URL('https://plinth.example.com'), 'acme.plinth.example.com')).toBe('https://acme.plinth.example.com');
  });
});
