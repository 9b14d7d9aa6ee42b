import { badRequest } from '../../http/errors.js';
import type { ModelBranchRow } from '../../store/schema.js';
import { MAX_PATH_LENGTH } from './limits.js';

/**
 * The reason a file path is refused, or null when it is a path relative to the model root
 * (`model/cubes/orders.yml`). Traversal (`..`), absolute paths and bytes a file system or
 * PostgreSQL would misread never reach the store.
 */
export function pathProblem(path: string): string | null {
  if (path.length === 0) return 'it is empty';
  if (path.length > MAX_PATH_LENGTH) return `it is longer than ${MAX_PATH_LENGTH} characters`;
  if (path.includes('\u0000')) return 'it contains a NUL byte';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0001-\u001f\u007f]/.test(path)) return 'it contains a control character';
  if (/\p{Cs}/u.test(path)) return 'it is not valid UTF-8 (a lone surrogate)';
  if (path.includes('\\')) return 'it contains a backslash; separate folders with /';
  if (path.startsWith('/')) return 'it is absolute; give it relative to the model root, e.g. model/cubes/orders.yml';
  for (const segment of path.split('/')) {
    if (segment === '') return 'it has an empty segment (// or a trailing /)';
    if (segment === '.' || segment === '..') return `it has a "${segment}" segment`;
  }
  return null;
}

/** 400 `Invalid path "<path>": <reason>` unless the path is acceptable. */
export function checkPath(path: string): string {
  const problem = pathProblem(path);
  if (problem) throw badRequest(`Invalid path ${JSON.stringify(path)}: ${problem}`);
  return path;
}

const BRANCH_CHARS = /^[A-Za-z0-9._/-]+$/;
export const MAX_BRANCH_LENGTH = 100;

/** The rule a branch name breaks, or null: git's rules, narrowed to characters safe in a URL and a shell. */
export function branchNameProblem(name: string): string | null {
  if (name.length === 0) return 'it is empty';
  if (name.length > MAX_BRANCH_LENGTH) return `it is longer than ${MAX_BRANCH_LENGTH} characters`;
  if (!BRANCH_CHARS.test(name)) return 'it may contain only letters, digits and . _ / -';
  if (name.startsWith('-') || name.startsWith('/')) return 'it may not start with - or /';
  if (name.includes('..')) return 'it may not contain ..';
  if (name.includes('//')) return 'it may not contain //';
  if (name.endsWith('/')) return 'it may not end with /';
  if (name.endsWith('.lock')) return 'it may not end with .lock';
  return null;
}

/** 400 `Invalid branch name "<name>": <rule>` unless the name is acceptable. */
export function checkBranchName(name: string): string {
  const problem = branchNameProblem(name);
  if (problem) throw badRequest(`Invalid branch name ${JSON.stringify(name)}: ${problem}`);
  return name;
}

/** Writes (put, delete, rename) are accepted only on dev-mode branches (section 3): 400 with the way to get one. */
export function devOnly(branch: ModelBranchRow): void {
  if (branch.kind !== 'dev') {
    throw badRequest(
      `Branch ${branch.name} is not a dev-mode branch; run plinth data-model dev-mode ${branch.deployment_id} ${branch.name} to get one`,
    );
  }
}
