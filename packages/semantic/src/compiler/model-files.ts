import type { Diagnostics } from './diagnostics.js';
import { renderJinja } from './jinja.js';
import { readJsModelFiles } from './js-files.js';
import { readModelFile, type RawEntry } from './yaml-files.js';

export type ModelFileKind = 'yaml' | 'javascript' | 'python';

/** Which reader a file under `model/` needs; undefined for files that are not model files (notes, READMEs). */
export function modelFileKind(path: string): ModelFileKind | undefined {
  const normalized = path.replace(/\\/g, '/').replace(/^\.\//, '');
  if (!/(^|\/)model\//.test(normalized)) return undefined;
  if (/\.ya?ml$/i.test(normalized)) return 'yaml';
  if (/\.(c|m)?js$/i.test(normalized)) return 'javascript';
  if (/\.py$/i.test(normalized)) return 'python';
  return undefined;
}

/** Reads model files, whatever their form, into cube and view entries in the order given; problems go to diagnostics. */
export function readModelFiles(
  files: ReadonlyArray<readonly [string, string]>,
  compileContext: unknown,
  diagnostics: Diagnostics,
): RawEntry[] {
  const scripts = files.filter(([path]) => modelFileKind(path) === 'javascript').map(([fileName, source]) => ({ fileName, source }));
  const fromScripts = scripts.length > 0 ? readJsModelFiles(scripts, compileContext, diagnostics) : new Map<string, RawEntry[]>();
  return files.flatMap(([fileName, text]) => fromScripts.get(fileName) ?? readOtherModelFile(fileName, text, compileContext, diagnostics));
}

function readOtherModelFile(fileName: string, text: string, compileContext: unknown, diagnostics: Diagnostics): RawEntry[] {
  switch (modelFileKind(fileName)) {
    case 'yaml': {
      const rendered = renderJinja(fileName, text, compileContext, diagnostics);
      return rendered === undefined ? [] : readModelFile(fileName, rendered, diagnostics);
    }
    case 'javascript': // read with the other scripts
      return [];
    case 'python':
      // Cube runs model/globals.py to give Jinja templates Python functions; Plinth has no Python runtime.
      diagnostics.error(
        fileName,
        'Python model files are not supported: Plinth runs no Python; use Jinja macros and variables in the YAML files instead',
      );
      return [];
    case undefined:
      return [];
  }
}
