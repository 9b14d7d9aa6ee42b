import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckoutFiles, CheckoutPathError } from './checkout-files.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A directory with `files`; `outside` beside it holds a secret the checkout must never reach. */
async function checkout(files: Record<string, string>): Promise<{ dir: string; outside: string }> {
  const parent = await mkdtemp(join(tmpdir(), 'plinth-checkout-files-'));
  made.push(parent);
  const dir = join(parent, 'checkout');
  const outside = join(parent, 'outside');
  for (const [path, text] of Object.entries({ ...files, '.git/config': '[remote]\n' })) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await mkdir(join(outside, 'etc'), { recursive: true });
  await writeFile(join(outside, 'etc', 'passwd'), 'root:x:0:0\n');
  return { dir, outside };
}

async function refusal(promise: Promise<unknown>): Promise<CheckoutPathError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CheckoutPathError);
  return error as CheckoutPathError;
}

describe('reading a checkout', () => {
  // The folder a/b/c, with a link out of the checkout replacing each of its components in turn.
  // The link's target holds the rest of the path, so that following it would succeed.
  it.each([
    ['the first component', 'a', 'b/c', 'a/b/c'],
    ['a middle component', 'a/b', 'c', 'a/b/c'],
    ['the last component', 'a/b/c', '', 'a/b/c'],
    ['the folder read, one level deep', 'l', '', 'l'],
  ])('a link out of the checkout as %s of the folder is refused', async (_, link, rest, folder) => {
    const { dir, outside } = await checkout({ 'a/b/c/x.yml': 'x: 1\n' });
    await mkdir(join(outside, rest, 'etc'), { recursive: true });
    await writeFile(join(outside, rest, 'etc', 'passwd'), 'root:x:0:0\n');
    await rm(join(dir, link), { recursive: true, force: true });
    await mkdir(dirname(join(dir, link)), { recursive: true });
    await symlink(outside, join(dir, link));
    const files = await CheckoutFiles.open(dir, folder);
    expect((await refusal(files.list())).message).toBe(`The path "${folder}" is a link to outside the repository`);
    expect((await refusal(files.read('etc/passwd'))).message).toBe(`The path "${folder}/etc/passwd" is a link to outside the repository`);
  });

  it('a link to / and a folder through it (l/etc) is refused before anything is read', async () => {
    const { dir } = await checkout({ 'model/a.yml': 'a: 1\n' });
    await symlink('/', join(dir, 'l'));
    const files = await CheckoutFiles.open(dir, 'l/etc');
    expect((await refusal(files.isDirectory())).message).toBe('The path "l/etc" is a link to outside the repository');
    expect((await refusal(files.read('passwd'))).message).toBe('The path "l/etc/passwd" is a link to outside the repository');
  });

  it('a link out of the checkout met while walking, as a file or a directory, is refused by name', async () => {
    for (const [name, target] of [
      ['leak.yml', 'etc/passwd'],
      ['leak', 'etc'],
    ] as const) {
      const { dir, outside } = await checkout({ 'model/a.yml': 'a: 1\n' });
      await symlink(join(outside, target), join(dir, 'model', name));
      const files = await CheckoutFiles.open(dir, 'model');
      expect((await refusal(files.list())).message).toBe(`The path "model/${name}" is a link to outside the repository`);
    }
  });

  it('a link out is refused whether or not its target exists, so no answer tells what is on the server', async () => {
    const { dir, outside } = await checkout({ 'model/a.yml': 'a: 1\n' });
    await symlink(join(outside, 'absent'), join(dir, 'model', 'dangling'));
    await symlink('dangling', join(dir, 'model', 'chained'));
    const files = await CheckoutFiles.open(dir, 'model');
    expect((await refusal(files.read('dangling/x'))).message).toBe('The path "model/dangling/x" is a link to outside the repository');
    expect((await refusal(files.read('chained'))).message).toBe('The path "model/chained" is a link to outside the repository');
    await symlink('self', join(dir, 'model', 'self'));
    expect((await refusal(files.read('self'))).message).toBe('The path "model/self" has too many levels of links');
  });

  it('a folder or file path climbing out with .. or absolute is refused without touching the disk', async () => {
    const { dir } = await checkout({ 'model/a.yml': 'a: 1\n' });
    expect((await refusal(CheckoutFiles.open(dir, '../outside'))).message).toBe('The path "../outside" is outside the repository');
    expect((await refusal(CheckoutFiles.open(dir, '/etc'))).message).toBe('The path "/etc" is outside the repository');
    const files = await CheckoutFiles.open(dir, 'model');
    expect((await refusal(files.read('../../outside/etc/passwd'))).message).toBe(
      'The path "model/../../outside/etc/passwd" is outside the repository',
    );
  });

  it("git's own directory is neither listed nor readable, even through a link", async () => {
    const { dir } = await checkout({ 'model/a.yml': 'a: 1\n' });
    await symlink(join(dir, '.git'), join(dir, 'model', 'git'));
    const root = await CheckoutFiles.open(dir);
    expect((await refusal(root.read('.git/config'))).message).toBe('The path ".git/config" is inside git\'s own directory');
    expect((await refusal(root.list('model'))).message).toBe('The path "model/git" is inside git\'s own directory');
    await rm(join(dir, 'model', 'git'));
    expect((await root.list()).map((f) => f.path)).toEqual(['model/a.yml']);
  });

  it('links that stay inside are followed, a loop ends, and a checkout reached through a link reads the same', async () => {
    const { dir } = await checkout({ 'shared/b.yml': 'b: 1\n', 'model/a.yml': 'a: 1\n' });
    await symlink(join(dir, 'shared'), join(dir, 'model', 'shared'));
    await symlink(join(dir, 'model'), join(dir, 'model', 'loop'));
    await symlink('a.yml', join(dir, 'model', 'alias.yml'));
    const through = join(dirname(dir), 'link-to-checkout');
    await symlink(dir, through);
    for (const root of [dir, through]) {
      const files = await CheckoutFiles.open(root, 'model');
      expect((await files.list()).map((f) => [f.path, f.size])).toEqual([
        ['a.yml', 5],
        ['alias.yml', 5],
        ['shared/b.yml', 5],
      ]);
      expect(await files.read('alias.yml')).toBe('a: 1\n');
      expect(await files.read('absent.yml')).toBeNull();
    }
  });
});
