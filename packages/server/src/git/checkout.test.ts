import { existsSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressPolicy } from '../egress/policy.js';
import { GitSourceError, listRemoteRefs, readFiles, refProblem, withCheckout } from './checkout.js';
import { startTestGitHost, type TestGitHost } from './test-http.js';
import { createGitRepo, type TestGitRepo } from './test-repos.js';

/** Test repositories are local paths, and the smart-HTTP host listens on loopback. */
const egress = new EgressPolicy({ allow: ['127.0.0.0/8'], allowLocalRepositories: true });

async function failure(promise: Promise<unknown>): Promise<GitSourceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitSourceError);
  return error as GitSourceError;
}

describe('git checkout', () => {
  let repo: TestGitRepo;
  let v1: string;

  beforeAll(async () => {
    repo = await createGitRepo({ 'model/orders.yml': 'cubes: []\n', 'README.md': '# r\n' });
    v1 = await repo.head();
    await repo.tag('v1');
    await repo.branch('feature/x');
    await repo.commit({ 'model/orders.yml': 'cubes: [x]\n', 'README.md': null }, 'feature');
    await repo.checkout('main');
  });
  afterAll(() => repo.remove());

  it('lists branches, tags (peeled) and the remote HEAD', async () => {
    const refs = await listRemoteRefs(egress, repo.dir);
    expect([...refs.branches.keys()].sort()).toEqual(['feature/x', 'main']);
    expect(refs.tags.get('v1')).toBe(v1);
    expect(refs.head).toBe('main');
  });

  it('checks out a branch, answers its commit and files, and removes the directory afterwards', async () => {
    let seen = '';
    const files = await withCheckout({ egress, url: repo.dir, ref: 'feature/x' }, async (checkout) => {
      seen = checkout.dir;
      expect(checkout.refKind).toBe('branch');
      expect(checkout.commitSha).toBe((await listRemoteRefs(egress, repo.dir)).branches.get('feature/x'));
      return readFiles(checkout.dir);
    });
    expect(Object.fromEntries(files)).toEqual({ 'model/orders.yml': 'cubes: [x]\n' });
    expect(existsSync(seen)).toBe(false);
  });

  it('checks out a tag', async () => {
    const sha = await withCheckout({ egress, url: repo.dir, ref: 'v1' }, async (checkout) => {
      expect(checkout.refKind).toBe('tag');
      return checkout.commitSha;
    });
    expect(sha).toBe(v1);
  });

  it('removes the directory when the work throws', async () => {
    let seen = '';
    await expect(
      withCheckout({ egress, url: repo.dir, ref: 'main' }, async (checkout) => {
        seen = checkout.dir;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(seen)).toBe(false);
  });

  it.each([
    ['', 'invalid', 'The ref is empty; name a branch or tag'],
    ['a1b2c3d', 'sha-ref', '--ref takes a branch or tag, not a commit SHA: "a1b2c3d"'],
    ['-uupload-pack=touch', 'invalid', 'Invalid ref "-uupload-pack=touch": it may not start with -'],
  ])('refuses the ref %j before running git', (ref, reason, message) => {
    const problem = refProblem(ref);
    expect(problem?.reason).toBe(reason);
    expect(problem?.message).toBe(message);
  });

  it('names a missing branch, an unreachable repository and a forbidden transport', async () => {
    const missing = await failure(withCheckout({ egress, url: repo.dir, ref: 'nope' }, async () => 0));
    expect([missing.reason, missing.message]).toEqual(['missing-ref', `Branch or tag "nope" not found in ${repo.dir}`]);
    const unreachable = await failure(withCheckout({ egress, url: join(repo.dir, 'absent'), ref: 'main' }, async () => 0));
    expect(unreachable.reason).toBe('unreachable');
    expect(unreachable.message).toMatch(/^Repository .*absent cannot be reached: /);
    const marker = join(repo.dir, '..', `ext-ran-${process.pid}`);
    const ext = await failure(listRemoteRefs(egress, `ext::sh -c touch% ${marker}`));
    expect([ext.reason, ext.message]).toEqual([
      'refused',
      `The repository "ext::sh -c touch% ${marker}" uses git's ext:: transport, which is not allowed`,
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a checkout past its file or size limit', async () => {
    const files = await failure(withCheckout({ egress, url: repo.dir, ref: 'main', limits: { maxFiles: 1 } }, async () => 0));
    expect([files.reason, files.message]).toEqual(['limit', `${repo.dir} has more than 1 files`]);
    const bytes = await failure(withCheckout({ egress, url: repo.dir, ref: 'main', limits: { maxBytes: 5 } }, async () => 0));
    expect(bytes.message).toBe(`${repo.dir} is larger than 0 MiB`);
  });

  it('reads text files under a folder, skipping binary files, and refuses a link or a folder outside', async () => {
    const local = await createGitRepo({ 'model/a.yml': 'a: 1\n' });
    try {
      await writeFile(join(local.dir, 'model', 'logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
      expect(Object.fromEntries(await readFiles(local.dir, 'model/'))).toEqual({ 'a.yml': 'a: 1\n' });
      // A link out of the checkout is refused by name, not skipped: the import would silently miss a file.
      await symlink('/etc/passwd', join(local.dir, 'model', 'passwd.yml'));
      expect(await failure(readFiles(local.dir, 'model/'))).toMatchObject({
        reason: 'invalid',
        message: 'The path "model/passwd.yml" is a link to outside the repository',
      });
      expect((await failure(readFiles(local.dir, '../etc'))).reason).toBe('invalid');
      expect((await failure(readFiles(local.dir, 'absent'))).message).toBe('Folder "absent" does not exist in the repository');
    } finally {
      await local.remove();
    }
  });

  describe('over smart HTTP with basic auth, as a token-protected host serves it', () => {
    let host: TestGitHost;
    let url = '';
    beforeAll(async () => {
      host = await startTestGitHost({
        repositories: { repo: repo.dir },
        authorize: (username, password) => username === 'x-access-token' && password === 'secret-token',
        prefix: '/enterprise',
      });
      url = `${host.url}/repo.git`;
    });
    afterAll(() => host.close());

    it('sends the credentials and clones', async () => {
      const auth = { username: 'x-access-token', password: 'secret-token' };
      const files = await withCheckout({ egress, url, ref: 'main', auth }, async (checkout) => readFiles(checkout.dir, 'model'));
      expect(Object.fromEntries(files)).toEqual({ 'orders.yml': 'cubes: []\n' });
    });

    it('fails with an authentication error, never a prompt, on a bad token or none', async () => {
      const bad = await failure(listRemoteRefs(egress, url, { username: 'x-access-token', password: 'wrong' }));
      expect(bad.reason).toBe('auth');
      expect(bad.message).toMatch(new RegExp(`^Authentication to ${url} failed: `));
      expect((await failure(listRemoteRefs(egress, url))).reason).toBe('auth');
    });
  });
});
