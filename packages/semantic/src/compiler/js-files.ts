import type { Diagnostics, Location } from './diagnostics.js';
import { isObj } from './fields.js';
import { evaluateModelScript } from './js-sandbox.js';
import type { RawEntry } from './yaml-files.js';

/**
 * Reads a JavaScript model file (`cube(\`orders\`, {...})`, `view(...)`) into the same entries the
 * YAML reader produces, so the rest of the compiler does not know which form a model was written in.
 */
export function readJsModelFile(fileName: string, source: string, compileContext: unknown, diagnostics: Diagnostics): RawEntry[] {
  // Cube lets JavaScript models import each other; Plinth does not, and a dynamic import() could only fail later and quietly.
  const importAt = /(^|[^\w$.])import\s*(\(|[\w${*])/m.exec(source);
  if (importAt) {
    const line = lineAt(source, importAt.index + (importAt[1] ?? '').length);
    diagnostics.error(fileName, `import is not supported in model files (line ${line}): each file must define its cubes and views itself`, {
      line,
      column: 1,
    });
    return [];
  }
  const result = evaluateModelScript(fileName, source, compileContext);
  if (!result.ok) {
    const where = result.line === undefined ? '' : ` at line ${result.line}`;
    diagnostics.error(
      fileName,
      `JavaScript error${where}: ${result.message}`,
      result.line === undefined ? undefined : { line: result.line, column: 1 },
    );
    return [];
  }
  return result.definitions.map((definition) => {
    const start = definition.line === undefined ? 0 : offsetOfLine(source, definition.line);
    const locate = (path: ReadonlyArray<string | number>): Location | undefined => locateInSource(source, start, path, definition.line);
    const value: Record<string, unknown> = { ...definition.definition, name: definition.name };
    if (isObj(definition.definition) && definition.definition['name'] !== undefined && definition.definition['name'] !== definition.name) {
      diagnostics.error(
        fileName,
        `${definition.kind}(${definition.name}) also has name: ${String(definition.definition['name'])}`,
        locate([]),
      );
    }
    return { kind: definition.kind, fileName, value, locate };
  });
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
