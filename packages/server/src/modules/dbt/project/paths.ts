import { parseDocument } from 'yaml';
import { CheckoutFiles, CheckoutPathError } from '../../../git/checkout-files.js';
import { DbtProjectError } from './types.js';

/**
 * A dbt project's files in a checkout, read through the server's one checkout reader (which
 * refuses any path that leaves the checkout, through `..` or a link), with its refusals as the
 * project's errors.
 */
export class ProjectFiles {
  private constructor(private readonly files: CheckoutFiles) {}

  static async open(root: string, folder: string): Promise<ProjectFiles> {
    return new ProjectFiles(await asProjectError(() => CheckoutFiles.open(root, folder)));
  }

  /** The project folder, relative to the checkout root, '' for the root itself. */
  get folder(): string {
    return this.files.folder;
  }

  /** How a file is named in messages: relative to the checkout, as the user sees the repository. */
  display(path: string): string {
    return this.files.display(path);
  }

  /** The text of a project file, or null when it does not exist. */
  read(path: string): Promise<string | null> {
    return asProjectError(() => this.files.read(path));
  }

  /** Files under a project directory (recursively, project-relative, sorted); none when it is missing. */
  async list(directory: string): Promise<string[]> {
    return (await asProjectError(() => this.files.list(directory))).map((file) => file.path);
  }
}

async function asProjectError<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof CheckoutPathError) throw new DbtProjectError(error.message, error.path || null);
    throw error;
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
