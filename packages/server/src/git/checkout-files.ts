import { lstat, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';

/** A path of a checkout that cannot be read: it leaves the checkout, through `..` or a link, or the disk refused it. */
export class CheckoutPathError extends Error {
  constructor(
    message: string,
    /** The path as the repository names it, for the caller's message. */
    readonly path: string,
  ) {
    super(message);
    this.name = 'CheckoutPathError';
  }
}

export interface CheckoutFile {
  /** Relative to the checkout's folder (not to the directory listed), in / form. */
  path: string;
  size: number;
}

/**
 * The only way the server reads a checkout. A checkout is untrusted input: a folder or file path
 * with `..`, an absolute path, or a symbolic link at any position of a path may point anywhere on
 * the server. Every path is resolved to its real location and refused unless that stays under the
 * checkout's real root; a link that stays inside is followed, as git and dbt follow it. Git's own
 * directory is never read.
 */
export class CheckoutFiles {
  private constructor(
    /** The real (link-free) checkout root. */
    private readonly root: string,
    /** The folder everything is read from, relative to root, '' for the root itself. */
    readonly folder: string,
  ) {}

  /** The checkout at `root`, read from `folder`; a folder outside the checkout is refused here. */
  static async open(root: string, folder = ''): Promise<CheckoutFiles> {
    let realRoot: string;
    try {
      realRoot = await realpath(root);
    } catch {
      throw new CheckoutPathError(`The checkout ${root} cannot be read`, '');
    }
    return new CheckoutFiles(realRoot, new CheckoutFiles(realRoot, '').inside(folder, folder));
  }

  /** How a path is named in messages: relative to the checkout, as the user sees the repository. */
  display(path: string): string {
    if (this.folder === '') return path;
    return path === '' || path === '.' ? this.folder : `${this.folder}/${path}`;
  }

  /** The text of a file, or null when it does not exist (or is not a file). */
  async read(path: string): Promise<string | null> {
    return (await this.readBytes(path))?.toString('utf8') ?? null;
  }

  async readBytes(path: string): Promise<Buffer | null> {
    const real = await this.real(path);
    if (real === null || !(await stat(real)).isFile()) return null;
    try {
      return await readFile(real);
    } catch (cause) {
      throw this.unreadable(path, cause);
    }
  }

  /** Whether `path` is a directory of the checkout (following links that stay inside). */
  async isDirectory(path = ''): Promise<boolean> {
    const real = await this.real(path);
    return real !== null && (await stat(real)).isDirectory();
  }

  /** The files under a directory of the folder (recursively, sorted); none when it is missing. */
  async list(directory = ''): Promise<CheckoutFile[]> {
    const start = await this.real(directory);
    if (start === null || !(await stat(start)).isDirectory()) return [];
    const found: CheckoutFile[] = [];
    // A link back to a parent directory would otherwise be walked forever.
    const visited = new Set<string>();
    const walk = async (real: string, path: string): Promise<void> => {
      if (visited.has(real)) return;
      visited.add(real);
      const entries = await readdir(real, { withFileTypes: true }).catch((cause: unknown) => {
        throw this.unreadable(path, cause);
      });
      for (const entry of entries) {
        const child = path === '' ? entry.name : `${path}/${entry.name}`;
        const target = entry.isSymbolicLink() ? await this.real(child) : join(real, entry.name);
        if (target === null || (path === '' && entry.name === '.git' && !entry.isSymbolicLink())) continue;
        const stats = await lstat(target);
        if (stats.isDirectory()) await walk(target, child);
        else if (stats.isFile()) found.push({ path: child, size: stats.size });
      }
    };
    await walk(start, posix.normalize(directory).replace(/\/+$/, '').replace(/^\.$/, ''));
    return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** `path` relative to the folder → path relative to the checkout root, refused when it leaves it. */
  private inside(path: string, shown: string, base = ''): string {
    if (path.includes('\0') || isAbsolute(path) || /^[A-Za-z]:/.test(path)) {
      throw new CheckoutPathError(`The path "${shown}" is outside the repository`, shown);
    }
    const rel = relative(this.root, resolve(this.root, base, path));
    if (leaves(rel)) throw new CheckoutPathError(`The path "${shown}" is outside the repository`, shown);
    return rel.split(sep).join('/');
  }

  /** Folder-relative path → real absolute path (null when missing), refused when a link on the way leads out. */
  private async real(path: string): Promise<string | null> {
    const shown = this.display(path);
    return this.follow(this.inside(path, shown, this.folder), shown, 0);
  }

  /**
   * Walks a root-relative path one component at a time, following each link by its target's text
   * rather than by the disk: a link that leads out is refused whether or not its target exists, so
   * the answer never tells what exists on the server outside the checkout.
   */
  private async follow(rel: string, shown: string, hops: number): Promise<string | null> {
    const parts = rel === '' ? [] : rel.split('/');
    if (parts[0] === '.git') throw new CheckoutPathError(`The path "${shown}" is inside git's own directory`, shown);
    let current = this.root;
    for (const [i, part] of parts.entries()) {
      const next = join(current, part);
      const stats = await lstat(next).catch(() => null);
      if (stats === null) return null;
      if (!stats.isSymbolicLink()) {
        current = next;
        continue;
      }
      // The kernel's own limit on links in one path.
      if (hops >= 40) throw new CheckoutPathError(`The path "${shown}" has too many levels of links`, shown);
      const target = relative(this.root, resolve(dirname(next), await readlink(next)));
      if (leaves(target)) throw new CheckoutPathError(`The path "${shown}" is a link to outside the repository`, shown);
      const rest = [...target.split(sep).filter((p) => p !== ''), ...parts.slice(i + 1)].join('/');
      return this.follow(rest, shown, hops + 1);
    }
    return current;
  }

  private unreadable(path: string, cause: unknown): CheckoutPathError {
    const shown = this.display(path);
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    return new CheckoutPathError(`${shown || 'The repository root'} cannot be read: ${code}`, shown);
  }
}

function leaves(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}
