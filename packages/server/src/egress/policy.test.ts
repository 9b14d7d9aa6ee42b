import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { egressFetch } from './fetch.js';
import { EgressPolicy, EgressRefusedError } from './policy.js';
import { AllowList, allowEntryProblem, NO_EGRESS_EXCEPTIONS } from './settings.js';

const strict = new EgressPolicy(NO_EGRESS_EXCEPTIONS);
const HINT = "The server's operator can allow it with PLINTH_EGRESS_ALLOW.";

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EgressRefusedError);
  return (error as Error).message;
}

describe('the egress policy', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.8.9.10', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fd00::1', 'a unique-local address'],
    ['fc12:3456::1', 'a unique-local address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['100.64.0.1', 'a shared (carrier-grade NAT) address'],
    ['224.0.0.1', 'a multicast address'],
  ])('refuses %s, %s', async (address, kind) => {
    const shown = address.replace(/^::ffff:/, '');
    expect(await refusal(strict.addressesOf(address, 'The issuer'))).toBe(`The issuer is refused: ${shown} is ${kind}. ${HINT}`);
  });

  it.each(['93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1', '11.0.0.1'])(
    'lets the public address %s through',
    async (address) => {
      expect(await strict.addressesOf(address, 'The issuer')).toEqual([address]);
    },
  );

  it("refuses this server's own addresses, whatever range they are in", async () => {
    const own = Object.values(networkInterfaces())
      .flat()
      .map((entry) => entry!.address);
    for (const address of own) expect(await refusal(strict.addressesOf(address, 'x'))).toMatch(/^x is refused: /);
  });

  it('checks a name after resolving it, and a name that does not resolve is refused on use but may be saved', async () => {
    expect(await refusal(strict.addressesOf('localhost', 'The token URL'))).toMatch(
      /^The token URL is refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address\. /,
    );
    expect(await refusal(strict.addressesOf('absent.invalid', 'The token URL'))).toMatch(
      /^The token URL cannot be reached: the host absent\.invalid does not resolve \(/,
    );
    expect(await strict.addressesOf('absent.invalid', 'The token URL', { unresolved: 'accept' })).toEqual([]);
  });

  it.each([
    ['an address', '127.0.0.1', '127.0.0.1', true],
    ['a CIDR range', '10.0.0.0/8', '10.20.30.40', true],
    ['a CIDR range, not beyond it', '10.0.0.0/8', '11.0.0.1', true],
    ['an IPv6 range', 'fd00::/8', 'fd00::5', true],
    ['a host', 'localhost', 'localhost', true],
    ['another host', 'git.internal', '127.0.0.1', false],
  ])('the operator may allow %s', async (_, entry, host, allowed) => {
    const policy = new EgressPolicy({ allow: [entry], allowLocalRepositories: false });
    const result = await policy.addressesOf(host, 'x').then(
      () => true,
      () => false,
    );
    expect(result).toBe(allowed);
  });

  it('a wildcard host allows the names under it, not the name itself', () => {
    const list = new AllowList(['*.corp.example']);
    expect([list.allowsHost('git.corp.example'), list.allowsHost('a.b.corp.example'), list.allowsHost('corp.example')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it.each([
    ['git.internal', null],
    ['*.corp.example', null],
    ['10.0.0.0/8', null],
    ['::1', null],
    ['fd00::/130', '"fd00::/130" is not a CIDR range'],
    ['10.0.0.0/x', '"10.0.0.0/x" is not a CIDR range'],
    ['http://git.internal', '"http://git.internal" is not a host, an address or a CIDR range'],
  ])('PLINTH_EGRESS_ALLOW entry %s', (entry, problem) => {
    expect(allowEntryProblem(entry)).toBe(problem);
  });

  it('takes only http and https URLs', async () => {
    expect(await refusal(strict.checkUrl('file:///etc/passwd', 'baseUrl'))).toBe('baseUrl must be an http or https URL, not file');
    expect(await refusal(strict.checkUrl('not a url', 'baseUrl'))).toBe('baseUrl "not a url" is not a URL');
    expect(await refusal(strict.checkUrl('http://[::1]:8080/v1', 'baseUrl'))).toBe(
      `baseUrl http://[::1]:8080 is refused: ::1 is a loopback address. ${HINT}`,
    );
  });
});

describe('fetching a tenant-chosen URL', () => {
  let internal: Server;
  let redirector: Server;
  let internalHits = 0;
  const port = (server: Server) => (server.address() as AddressInfo).port;
  beforeAll(async () => {
    internal = createServer((_, res) => {
      internalHits += 1;
      res.end('secret');
    });
    redirector = createServer((_, res) => res.writeHead(302, { location: `http://127.0.0.1:${port(internal)}/` }).end());
    await Promise.all([internal, redirector].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  });
  afterAll(() => Promise.all([internal, redirector].map((s) => new Promise((resolve) => s.close(resolve)))));

  it('refuses an internal URL before any connection', async () => {
    expect(await refusal(egressFetch(strict, 'The issuer', `http://127.0.0.1:${port(internal)}/`))).toMatch(/is a loopback address/);
    expect(internalHits).toBe(0);
  });

  it('checks every connection: an allowed host redirecting to an internal address reaches nothing', async () => {
    // Only the name localhost is allowed, not the address 127.0.0.1 the redirect names.
    const policy = new EgressPolicy({ allow: ['localhost'], allowLocalRepositories: false });
    const message = await refusal(egressFetch(policy, 'The issuer', `http://localhost:${port(redirector)}/`, { redirect: 'follow' }));
    expect(message).toMatch(/^The issuer is refused: 127\.0\.0\.1 is a loopback address/);
    expect(internalHits).toBe(0);
    const allowed = await egressFetch(policy, 'The issuer', `http://localhost:${port(redirector)}/`, { redirect: 'manual' });
    expect(allowed.status).toBe(302);
  });
});
