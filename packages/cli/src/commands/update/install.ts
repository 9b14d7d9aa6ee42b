import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CliError } from '../../core/errors.js';

const run = promisify(execFile);

export { installRootOf } from '../../core/releases.js';

export async function installRelease(root: string, version: string, tarball: Buffer, sha256: string | undefined): Promise<string> {
  const digest = createHash('sha256').update(tarball).digest('hex');
  if (sha256 && digest !== sha256) throw new CliError(`The downloaded release ${version} does not match its checksum`);
  const versions = join(root, 'versions');
  await mkdir(versions, { recursive: true });
  const work = await mkdtemp(join(tmpdir(), 'plinth-update-'));
  try {
    const file = join(work, 'release.tgz');
    await writeFile(file, tarball);
    const staged = join(versions, `.${version}.${process.pid}`);
    await rm(staged, { recursive: true, force: true });
    await mkdir(staged, { recursive: true });
    await run('tar', ['-xzf', file, '-C', staged, '--strip-components=1']);
    // A tarball need not carry the exec bit (tsc writes 0644); the link below must be runnable.
    await chmod(join(staged, 'dist', 'main.js'), 0o755);
    const target = join(versions, version);
    await rm(target, { recursive: true, force: true });
    await rename(staged, target);
    // Swap the link atomically: a new link beside the old one, renamed over it.
    await mkdir(join(root, 'bin'), { recursive: true });
    const link = join(root, 'bin', 'plinth');
    const next = `${link}.${process.pid}`;
    await rm(next, { force: true });
    await symlink(join('..', 'versions', version, 'dist', 'main.js'), next);
    await rename(next, link);
    return link;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
