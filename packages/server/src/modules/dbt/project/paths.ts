import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { parseDocument } from 'yaml';
import { DbtProjectError } from './types.js';

/**
 * A checkout is untrusted input: a folder or model path with `..`, an absolute path, or a symlink
 * may point anywhere on the server. Every path is resolved here and refused unless it stays under
 * the checkout's real root.
 */
export class ProjectFiles {
  private constructor(
    /** The real (symlink-free) checkout root. */
    private readonly root: string,
    /** The project folder, relative to root, '' for the root itself. */
    readonly folder: string,
  ) {}

  static async open(root: string, folder: string): Promise<ProjectFiles> {
    let realRoot: string;
    try {
      realRoot = await realpath(root);
    } catch {
      throw new DbtProjectError(`The checkout ${root} cannot be read`, null);
    }
    const files = new ProjectFiles(realRoot, '');
    const normalized = files.inside(folder, folder);
    return new ProjectFiles(realRoot, normalized);
  }

  /** `path` relative to the project folder → path relative to the checkout root, or an error. */
  private inside(path: string, shown: string, base = ''): string {
    if (path.includes('\0') || isAbsolute(path) || /^[A-Za-z]:/.test(path)) {
      throw new DbtProjectError(`The path "${shown}" is outside the repository`, shown);
    }
    const full = resolve(this.root, base, path);
    const rel = relative(this.root, full);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      throw new DbtProjectError(`The path "${shown}" is outside the repository`, shown);
    }
    return rel.split(sep).join('/');
  }

  /** Project-relative path → real absolute path, refusing one whose symlinks lead out of the checkout. */
  private async real(path: string): Promise<string | null> {
    const rel = this.inside(path, this.display(path), this.folder);
    let real: string;
    try {
      real = await realpath(join(this.root, rel));
    } catch {
      return null;
    }
    const back = relative(this.root, real);
    if (back === '..' || back.startsWith(`..${sep}`) || isAbsolute(back)) {
      throw new DbtProjectError(`The path "${this.display(path)}" is a link to outside the repository`, this.display(path));
    }
    return real;
  }

  /** How a file is named in messages: relative to the checkout, as the user sees the repository. */
  display(path: string): string {
    return this.folder === '' ? path : `${this.folder}/${path}`;
  }

  /** The text of a project file, or null when it does not exist. */
  async read(path: string): Promise<string | null> {
    const real = await this.real(path);
    if (real === null) return null;
    if (!(await lstat(real)).isFile()) return null;
    try {
      return await readFile(real, 'utf8');
    } catch (cause) {
      const shown = this.display(path);
      throw new DbtProjectError(`${shown} cannot be read: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`, shown);
    }
  }

  /** Files under a project directory (recursively, project-relative, sorted); none when it is missing. */
  async list(directory: string): Promise<string[]> {
    const start = await this.real(directory);
    if (start === null) return [];
    const found: string[] = [];
    // A link to a parent directory would otherwise be walked forever.
    const visited = new Set<string>();
    const walk = async (dir: string, prefix: string): Promise<void> => {
      if (visited.has(dir)) return;
      visited.add(dir);
      const entries = await readdir(dir, { withFileTypes: true }).catch((cause: NodeJS.ErrnoException) => {
        throw new DbtProjectError(`${this.display(prefix)} cannot be read: ${cause.code ?? cause.message}`, this.display(prefix));
      });
      for (const entry of entries) {
        const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
        if (entry.isSymbolicLink()) {
          // Followed only when it stays inside the checkout, else real() refuses it.
          const target = await this.real(path);
          if (target === null) continue;
          const stat = await lstat(target);
          if (stat.isDirectory()) await walk(target, path);
          else if (stat.isFile()) found.push(path);
        } else if (entry.isDirectory()) {
          await walk(join(dir, entry.name), path);
        } else if (entry.isFile()) {
          found.push(path);
        }
      }
    };
    if ((await lstat(start)).isDirectory()) await walk(start, posix.normalize(directory).replace(/\/+$/, '').replace(/^\.$/, ''));
    return found.sort();
  }
}

/** Parses a YAML file of the project; a syntax error names the file and line. */
export function parseYamlFile(file: string, text: string): unknown {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: false });
  const error = document.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    const where = line === undefined ? '' : ` at line ${line}`;
    const reason = error.message.split('\n')[0];
    throw new DbtProjectError(`${file} is not valid YAML${where}: ${reason}`, file);
  }
  try {
    return document.toJS() as unknown;
  } catch (cause) {
    // An alias expanding past yaml's limit (a "billion laughs" file), say.
    throw new DbtProjectError(`${file} cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`, file);
  }
}

/** Parses a JSON file of the project; a syntax error names the file. */
export function parseJsonFile(file: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DbtProjectError(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, file);
  }
}
