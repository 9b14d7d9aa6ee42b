import type { Diagnostics, Location } from './diagnostics.js';
import { evaluateModelScripts, type JsDefinition, type ModelScript } from './js-sandbox.js';
import type { RawEntry } from './yaml-files.js';

/**
 * Reads JavaScript model files (`cube(\`orders\`, {...})`, `view(...)`) into the same entries the
 * YAML reader produces, so the rest of the compiler does not know which form a model was written in.
 * All files of a compile run in one sandbox thread, one fresh QuickJS runtime each.
 */
export function readJsModelFiles(
  files: readonly ModelScript[],
  compileContext: unknown,
  diagnostics: Diagnostics,
): Map<string, RawEntry[]> {
  const entries = new Map<string, RawEntry[]>(files.map((file) => [file.fileName, []]));
  const runnable = files.filter((file) => !hasImport(file, diagnostics));
  const evaluations = evaluateModelScripts(runnable, compileContext);
  runnable.forEach((file, index) => {
    const result = evaluations[index];
    if (!result) return;
    if (!result.ok) {
      const where = result.line === undefined ? '' : ` at line ${result.line}`;
      diagnostics.error(
        file.fileName,
        `JavaScript error${where}: ${result.message}`,
        result.line === undefined ? undefined : { line: result.line, column: 1 },
      );
      return;
    }
    entries.set(
      file.fileName,
      result.definitions.map((definition) => toEntry(file, definition, diagnostics)),
    );
  });
  return entries;
}

/** Cube lets JavaScript models import each other; Plinth does not, and a dynamic import() could only fail later and quietly. */
function hasImport(file: ModelScript, diagnostics: Diagnostics): boolean {
  const importAt = /(^|[^\w$.])import\s*(\(|[\w${*])/m.exec(file.source);
  if (!importAt) return false;
  const line = lineAt(file.source, importAt.index + (importAt[1] ?? '').length);
  diagnostics.error(
    file.fileName,
    `import is not supported in model files (line ${line}): each file must define its cubes and views itself`,
    {
      line,
      column: 1,
    },
  );
  return true;
}

function toEntry(file: ModelScript, definition: JsDefinition, diagnostics: Diagnostics): RawEntry {
  const source = file.source;
  const start = definition.line === undefined ? 0 : offsetOfLine(source, definition.line);
  const locate = (path: ReadonlyArray<string | number>): Location | undefined => locateInSource(source, start, path, definition.line);
  const written = definition.definition['name'];
  if (written !== undefined && written !== definition.name) {
    diagnostics.error(file.fileName, `${definition.kind}(${definition.name}) also has name: ${String(written)}`, locate([]));
  }
  return { kind: definition.kind, fileName: file.fileName, value: { ...definition.definition, name: definition.name }, locate };
}

function lineAt(source: string, offset: number): number {
  return source.slice(0, offset).split('\n').length;
}

function offsetOfLine(source: string, line: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = source.indexOf('\n', offset);
    if (next < 0) return offset;
    offset = next + 1;
  }
  return offset;
}

/**
 * Best effort: the evaluated object has no positions, so a path such as `['measures', 'count', 'sql']`
 * is found by looking for each key (`measures:`, then `count:`, then `sql:`) after the previous one.
 * List indexes keep the position of their list. Undefined when a key cannot be found.
 */
function locateInSource(
  source: string,
  start: number,
  path: ReadonlyArray<string | number>,
  definitionLine: number | undefined,
): Location | undefined {
  let offset = start;
  for (const segment of path) {
    if (typeof segment === 'number') continue;
    const escaped = segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`(^|[^\\w$])(["'\`]?)${escaped}\\2\\s*:`, 'g');
    pattern.lastIndex = offset;
    const match = pattern.exec(source);
    if (!match) return undefined;
    offset = match.index + (match[1] ?? '').length;
  }
  if (path.length === 0) return definitionLine === undefined ? undefined : { line: definitionLine, column: 1 };
  const line = lineAt(source, offset);
  return { line, column: offset - offsetOfLine(source, line) + 1 };
}
