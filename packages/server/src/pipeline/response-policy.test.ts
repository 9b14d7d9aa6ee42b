import { describe, expect, it } from 'vitest';
import type { ResponsePolicy } from './context.js';
import { accessEntry, PAGE_CSP, policyHeaders, responseHeaders } from './response-policy.js';

const page = { 'content-security-policy': PAGE_CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' };

describe('the response policy, without any server', () => {
  it.each<[string, ResponsePolicy, Record<string, string>]>([
    ['an API answer', {}, { 'x-content-type-options': 'nosniff' }],
    ['an answer carrying a secret', { carriesSecret: true }, { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' }],
    ['a page of ours', { page: true }, { 'x-content-type-options': 'nosniff', ...page }],
    [
      'a page holding a secret',
      { page: true, carriesSecret: true },
      { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', ...page },
    ],
    ['a dull answer (its access line at debug)', { accessLogLevel: 'debug' }, { 'x-content-type-options': 'nosniff' }],
  ])('%s carries its headers, the request id first', (_name, policy, expected) => {
    expect(policyHeaders(policy)).toEqual(expected);
    const headers = responseHeaders(policy, 'id-1');
    expect(headers).toEqual({ 'x-request-id': 'id-1', ...expected });
    expect(Object.keys(headers)[0]).toBe('x-request-id');
  });

  it("a page's CSP lets no script run and no other site frame it", () => {
    expect(PAGE_CSP).toContain("default-src 'none'");
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
  });

  it('the access line leaves the query string out and takes its level from the policy', () => {
    expect(accessEntry({ accessLogLevel: 'debug' }, 'id-2', 'GET', '/d/1/load?query=secret', 200, 1.6)).toEqual({
      reqId: 'id-2',
      method: 'GET',
      path: '/d/1/load',
      status: 200,
      ms: 2,
      level: 'debug',
    });
  });
});
