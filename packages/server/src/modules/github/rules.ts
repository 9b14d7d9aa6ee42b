import { isAbsolute } from 'node:path';
import { badRequest } from '../../http/errors.js';
import { NOT_CONFIGURED } from './client.js';
import { splitCredentials, type ConnectionSource } from './source.js';

export interface ConnectInput {
  repository: string;
  installationId?: number | undefined;
  branch: string;
  directory?: string | undefined;
}

const FULL_NAME = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;
/** What git clones without an installation: a URL with a scheme it speaks, scp-like `user@host:path`, or an absolute path. */
const GIT_URL = /^(https?|ssh|git|file):\/\/\S+$|^[^/\s:@]+@[^/\s:]+:\S+$/;

/**
 * The source a connect request names, checked before anything is fetched. A name that could be
 * either (`acme/shop`) is an installation's repository only with `installationId`: guessing a
 * relative path on the server would clone whatever the working directory holds.
 */
export function checkSource(input: ConnectInput, configured: boolean): ConnectionSource {
  const installationId = input.installationId ?? null;
  const repository = installationId !== null ? checkInstallationRepository(input.repository, configured) : input.repository.trim();
  if (installationId === null && !GIT_URL.test(repository) && !isAbsolute(repository)) {
    throw badRequest(
      `Repository ${JSON.stringify(input.repository)} is neither a git URL (https://, ssh://, git@host:path, file://) nor an absolute path; ` +
        'for owner/repo of a GitHub App installation, give installationId',
    );
  }
  const { repository: url, credentials } = installationId === null ? splitCredentials(repository) : { repository, credentials: null };
  return { repository: url, credentials, installationId, branch: checkRef(input.branch), directory: checkDirectory(input.directory) };
}

/**
 * The repository a request names with an installation: `owner/repo` as GitHub names it (trimmed),
 * and only on a server where the GitHub App is configured. dbt's connect takes it the same way.
 */
export function checkInstallationRepository(repository: string, configured: boolean): string {
  if (!configured) throw badRequest(NOT_CONFIGURED);
  const name = repository.trim();
  if (!FULL_NAME.test(name))
    throw badRequest(`With installationId, repository is owner/repo as GitHub names it, got ${JSON.stringify(repository)}`);
  return name;
}

function checkRef(branch: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f~^:?*[\\]/.test(branch) || branch.startsWith('-') || branch.includes('..')) {
    throw badRequest(`Invalid branch name ${JSON.stringify(branch)}`);
  }
  return branch;
}

/** A folder of the repository, `/`-separated, never climbing out of it; null for the default (`model`), '' for the root. */
function checkDirectory(directory: string | undefined): string | null {
  if (directory === undefined) return null;
  // `.` is the repository's root, for a repository that is nothing but a data model.
  if (/^\.?\/?$/.test(directory.trim())) return '';
  const folder = directory.replace(/^\.?\/+/, '').replace(/\/+$/, '');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (folder === '' || folder.split('/').some((part) => part === '' || part === '.' || part === '..') || /[\\\u0000-\u001f]/.test(folder)) {
    throw badRequest(`Invalid directory ${JSON.stringify(directory)}: give a folder of the repository such as model or analytics/model`);
  }
  return folder;
}
