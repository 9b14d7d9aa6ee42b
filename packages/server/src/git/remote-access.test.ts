import { describe, expect, it } from 'vitest';
import { EgressPolicy } from '../egress/policy.js';
import { NO_EGRESS_EXCEPTIONS } from '../egress/settings.js';
import { remoteAccess } from './remote-access.js';
import { GitSourceError } from './run-git.js';

const strict = new EgressPolicy(NO_EGRESS_EXCEPTIONS);
const LOCAL = "The server's operator can allow them with PLINTH_ALLOW_LOCAL_REPOSITORIES=1.";

async function refusal(remote: string, policy = strict): Promise<string> {
  const error = await remoteAccess(policy, remote).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitSourceError);
  expect((error as GitSourceError).reason).toBe('refused');
  return (error as Error).message;
}

describe('what a repository may be', () => {
  it.each([
    ['an absolute path', '/work/main'],
    ['a relative path', '../main'],
    ['a bare name', 'repo'],
    ['a file:// URL', 'file:///work/main'],
  ])('%s is refused unless the operator allows local repositories', async (_, remote) => {
    expect(await refusal(remote)).toBe(`Local repository paths are refused: "${remote}" is on the server's own disk. ${LOCAL}`);
    const local = new EgressPolicy({ allow: [], allowLocalRepositories: true });
    expect(await remoteAccess(local, remote)).toEqual({ config: [] });
  });

  it.each([
    [
      'http on loopback',
      'http://127.0.0.1:9/repo.git',
      'The repository http://127.0.0.1:9/repo.git is refused: 127.0.0.1 is a loopback address',
    ],
    ['https on a private address', 'https://10.0.0.5/acme/shop.git', 'is refused: 10.0.0.5 is a private address'],
    ['ssh to link-local', 'ssh://git@169.254.169.254/repo', 'is refused: 169.254.169.254 is a link-local address'],
    ['scp-like ssh to loopback', 'git@127.0.0.1:acme/shop.git', 'is refused: 127.0.0.1 is a loopback address'],
    [
      'git:// to a name resolving to loopback',
      'git://localhost/repo',
      /is refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    ],
    [
      'a credential in the URL, never shown',
      'https://user:secret@127.0.0.1/repo.git',
      'The repository https://127.0.0.1/repo.git is refused',
    ],
    ['a remote helper', 'ext::sh -c id', `The repository "ext::sh -c id" uses git's ext:: transport, which is not allowed`],
    [
      'another scheme',
      'ftp://example.com/repo',
      'The repository "ftp://example.com/repo" uses ftp://, which is not one of https, http, ssh or git',
    ],
  ])('%s is refused', async (_, remote, message) => {
    const refused = await refusal(remote);
    if (typeof message === 'string') expect(refused).toContain(message);
    else expect(refused).toMatch(message);
    expect(refused).not.toContain('secret');
  });

  it('an allowed name is pinned to the address checked, and git may not follow a redirect elsewhere', async () => {
    const policy = new EgressPolicy({ allow: ['localhost'], allowLocalRepositories: false });
    const pins = await remoteAccess(policy, 'http://localhost:8080/repo.git');
    expect(pins.config).toEqual([
      ['http.curloptResolve', expect.stringMatching(/^localhost:8080:(127\.0\.0\.1|\[::1\])$/)],
      ['http.followRedirects', 'false'],
    ]);
    expect((await remoteAccess(policy, 'https://localhost/repo.git')).config[0]![1]).toMatch(/^localhost:443:/);
    expect(await remoteAccess(policy, 'git@localhost:acme/shop.git')).toEqual({
      config: [],
      sshHostName: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
    const literal = new EgressPolicy({ allow: ['127.0.0.0/8'], allowLocalRepositories: false });
    expect(await remoteAccess(literal, 'http://127.0.0.1:9/repo.git')).toEqual({ config: [['http.followRedirects', 'false']] });
  });
});
