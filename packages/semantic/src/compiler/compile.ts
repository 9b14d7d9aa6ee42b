import type { DataModel, View } from '../model.js';
import { rollupProblems } from '../rollups/validate.js';
import { checkCubes } from './check-cubes.js';
import { checkKeywords } from './check-keywords.js';
import { Diagnostics, type CompileError } from './diagnostics.js';
import type { DraftCube } from './draft.js';
import { resolveExtends } from './extends.js';
import { linkCubes } from './link-cubes.js';
import { attachPreAggregations } from './pre-aggregations.js';
import { readCube } from './read-cube.js';
import { readView } from './views.js';
import { modelFileKind, readModelFiles } from './model-files.js';
import type { RawEntry } from './yaml-files.js';

export interface CompileResult {
  readonly valid: boolean;
  readonly errors: readonly CompileError[];
  readonly cubesCount: number;
  /** Present even when invalid, with whatever could be compiled, so tools can still show it. */
  readonly model: DataModel;
}

export interface CompileOptions {
  /**
   * Cube's `COMPILE_CONTEXT`: what the model is compiled for (a tenant, say), seen by Jinja templates
   * and JavaScript model files as `COMPILE_CONTEXT`, and by `{COMPILE_CONTEXT.x}` in model SQL. Plain JSON data.
   */
  readonly compileContext?: Readonly<Record<string, unknown>>;
}

/**
 * Files in (path → text), model or every error out. Files under `model/` are read: YAML (with
 * Jinja), JavaScript (in a sandbox); Python files are rejected; other files are ignored.
 */
export function compile(
  files: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
  options: CompileOptions = {},
): CompileResult {
  const diagnostics = new Diagnostics();
  const compileContext = options.compileContext ?? {};
  const modelFiles = [...(files instanceof Map ? files.entries() : Object.entries(files))]
    .filter(([path]) => modelFileKind(path) !== undefined)
    // Sorted so that errors and the model never depend on the order the caller listed files in.
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, text]) => [path, String(text)] as const);
  const entries = readModelFiles(modelFiles, compileContext, diagnostics).map((entry) => checkKeywords(entry, diagnostics));

  const unique: RawEntry[] = [];
  const declaredIn = new Map<string, string>();
  for (const entry of entries) {
    const name = typeof entry.value['name'] === 'string' ? entry.value['name'] : undefined;
    if (name !== undefined) {
      const first = declaredIn.get(name);
      if (first !== undefined) {
        diagnostics.error(entry.fileName, `Duplicate cube or view name ${name} (first defined in ${first})`, entry.locate([]));
        continue;
      }
      declaredIn.set(name, entry.fileName);
    }
    unique.push(entry);
  }
  const drafts: DraftCube[] = [];
  const viewEntries: RawEntry[] = [];
  for (const entry of resolveExtends(unique, diagnostics)) {
    if (entry.kind === 'view') {
      viewEntries.push(entry);
    } else {
      const draft = readCube(entry, diagnostics);
      if (draft) drafts.push(draft);
    }
  }
  const memberNames = new Map(drafts.map((d) => [d.name, new Set(d.members.map((m) => m.name))]));
  const names = {
    hasCube: (n: string) => memberNames.has(n),
    hasMember: (c: string, m: string) => memberNames.get(c)?.has(m) ?? false,
    compileContext: options.compileContext,
  };
  const linked = linkCubes(drafts, names, diagnostics);
  checkCubes(linked, diagnostics);
  const cubes = attachPreAggregations(drafts, linked, names, diagnostics);
  if (diagnostics.errors.length === 0) {
    // Checked on a sound model only: building a rollup's query needs every member and join to exist.
    for (const problem of rollupProblems({ cubes, views: new Map() })) {
      const draft = drafts.find((d) => d.name === problem.cube);
      const at = draft?.preAggregations.find((entry) => entry.name === problem.name)?.at;
      diagnostics.error(draft?.fileName ?? '', `Pre-aggregation ${problem.cube}.${problem.name}: ${problem.message}`, at);
    }
  }
  const views = new Map<string, View>();
  for (const entry of viewEntries) {
    const view = readView(entry, cubes, diagnostics);
    if (view) views.set(view.name, view);
  }
  return {
    valid: diagnostics.errors.length === 0,
    errors: diagnostics.errors,
    cubesCount: cubes.size + views.size,
    model: { cubes, views },
  };
}
