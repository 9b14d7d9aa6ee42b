import { badRequest } from '../../http/errors.js';

/** Section 4.8 rule 5, word for word. */
export const SHA_REF_MESSAGE = '--ref takes a branch or tag, not a commit SHA';
const SHA = /^[0-9a-fA-F]{7,40}$/;
const MAX_REF_LENGTH = 250;

/**
 * The ref a sync takes: `ref` when given, else the integration's branch. Only branches and tags
 * are synced (rule 5): a commit SHA names no moving line of work to sync from, so one is refused,
 * and so is an empty value (rule 4), which would otherwise silently mean the default.
 */
export function syncRef(ref: string | undefined, integrationBranch: string): string {
  if (ref === undefined) return integrationBranch;
  if (ref.trim() === '') throw badRequest(`--ref is empty; name a branch or tag, or leave --ref out to sync ${integrationBranch}`);
  if (SHA.test(ref)) throw badRequest(SHA_REF_MESSAGE);
  return checkRefName(ref, '--ref');
}

/** git's ref-name rules, the parts a user can get wrong; `what` names the field in the message. */
export function checkRefName(ref: string, what: string): string {
  const problem =
    ref.length > MAX_REF_LENGTH
      ? `it is longer than ${MAX_REF_LENGTH} characters`
      : /[\s~^:?*[\\]/.test(ref) || [...ref].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
        ? 'it contains a space or one of ~ ^ : ? * [ \\'
        : ref.startsWith('-') || ref.startsWith('/') || ref.endsWith('/') || ref.endsWith('.')
          ? 'it may not start with - or /, nor end with / or .'
          : ref.includes('..') || ref.includes('//') || ref.includes('@{')
            ? 'it may not contain .., // or @{'
            : null;
  if (problem) throw badRequest(`Invalid ${what} ${JSON.stringify(ref)}: ${problem}`);
  return ref;
}

/** `YYYYMMDDHHmmss` in UTC. */
export function utcStamp(at: Date): string {
  return at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * The generated branch's name: `dbt-<ref>-<UTC YYYYMMDDHHmmss>-<sha7>`, the ref's `/` turned into
 * `-` and any character a branch name may not hold too, cut so the whole fits the 100 characters
 * of a branch name (the stamp and hash, which make it unique, are kept whole).
 */
export function syncBranchName(ref: string, at: Date, commitSha: string): string {
  const suffix = `-${utcStamp(at)}-${commitSha.slice(0, 7)}`;
  const safe = ref
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/\.lock$/, '-lock');
  return `dbt-${safe.slice(0, 100 - 'dbt-'.length - suffix.length)}${suffix}`;
}

/** The project's folder in the repository: relative, normalised, '' for the root. */
export function checkFolder(folder: string | undefined): string {
  if (folder === undefined) return '';
  const trimmed = folder.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return '';
  if (trimmed.startsWith('/') || trimmed.split('/').some((s) => s === '..' || s === '' || s === '.'))
    throw badRequest(`Invalid folder ${JSON.stringify(folder)}: give a path inside the repository, like "analytics" or "dbt/project"`);
  return trimmed;
}
