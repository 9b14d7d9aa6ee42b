import type { Schema } from '@plinth/api-client';
import { counted } from '../../core/counted.js';

/** A compiler error as the build API reports it. */
export type CompileErrorBody = Schema<'CompileError'>;

/** The build API's answer (build status, a build of the list, rebuild, cancel). */
export type BuildBody = Schema<'Build'>;

/** `file:line:column: message`, as compilers print them; a build that failed as a whole has no file. */
export function errorLine(error: CompileErrorBody): string {
  if (!error.fileName) return error.message;
  const at = [error.fileName, error.line, error.line !== undefined ? error.column : undefined].filter((part) => part !== undefined);
  return `${at.join(':')}: ${error.message}`;
}

/** One line per build state for a person. */
export function statusLine(build: BuildBody): string {
  const id = build.buildId === null ? 'no build' : `build ${build.buildId}`;
  const cubes = build.status === 'built' ? `, ${counted(build.cubesCount ?? 0, 'cube')}` : '';
  return `${build.branchName}: ${build.status} (${id}, commit ${build.commitId}${cubes})`;
}

export const TERMINAL = new Set(['built', 'failed', 'cancelled', 'dev_mode']);
