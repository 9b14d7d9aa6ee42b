import { Environment, Interpreter, parse, tokenize } from '@huggingface/jinja';

type Program = ReturnType<typeof parse>;

/**
 * A template as Cube's engine (minijinja with its defaults) reads it: no trim_blocks, no lstrip_blocks,
 * so a block tag's own newline and indentation stay unless `-` says otherwise. The package's Template
 * class turns both on (chat templates want them), so the program is built from its parts.
 */
function parseTemplate(text: string): Program {
  return parse(tokenize(text, { trim_blocks: false, lstrip_blocks: false }));
}

/** The globals the package's Template sets, and the compile context. */
function renderTemplate(program: Program, compileContext: unknown): string {
  const environment = new Environment();
  for (const [name, value] of Object.entries({ true: true, false: false, none: null, True: true, False: false, None: null })) {
    environment.set(name, value);
  }
  environment.set('range', range);
  environment.set('raise_exception', (message: unknown) => {
    throw new Error(String(message));
  });
  environment.set('COMPILE_CONTEXT', compileContext ?? {});
  const result = new Interpreter(environment).run(program);
  return String(result.value);
}

/** Python's range(). */
function range(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0) throw new Error('range() step must not be zero');
  const values: number[] = [];
  for (let value = from; step > 0 ? value < to : value > to; value += step) values.push(value);
  return values;
}
import type { Diagnostics } from './diagnostics.js';

const DELIMITERS = /\{\{|\{%|\{#/;
const PYTHON_BLOCK = /\{%-?\s*python\b/;

/**
 * Renders Jinja in a YAML model file before it is parsed, as Cube does, with `COMPILE_CONTEXT`
 * as a template variable. Files without Jinja delimiters are returned as they are, so their line
 * numbers stay exact. Returns undefined, with the error reported, when the template fails.
 */
export function renderJinja(fileName: string, text: string, compileContext: unknown, diagnostics: Diagnostics): string | undefined {
  if (!DELIMITERS.test(text)) return text;
  const python = PYTHON_BLOCK.exec(text);
  if (python) {
    const line = lineAt(text, python.index);
    diagnostics.error(
      fileName,
      `Jinja {% python %} blocks are not supported (line ${line}): Plinth runs no Python; use Jinja macros and variables`,
      { line, column: 1 },
    );
    return undefined;
  }
  let program: Program;
  try {
    program = parseTemplate(text);
  } catch (error) {
    const line = syntaxErrorLine(text);
    const where = line === undefined ? '' : ` at line ${line}`;
    const statement = /Unknown statement type: (\w+)/.exec(messageOf(error))?.[1];
    const message = statement ? `{% ${statement} %} is not supported by Plinth's Jinja engine` : messageOf(error);
    diagnostics.error(fileName, `Jinja syntax error${where}: ${message}`, line === undefined ? undefined : { line, column: 1 });
    return undefined;
  }
  try {
    return renderTemplate(program, compileContext);
  } catch (error) {
    diagnostics.error(fileName, `Jinja error while rendering: ${messageOf(error)}`);
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

const TAG = /\{\{-?([\s\S]*?)-?\}\}|\{%-?\s*([\s\S]*?)\s*-?%\}/g;
const BLOCKS: Record<string, string> = {
  for: 'endfor',
  if: 'endif',
  macro: 'endmacro',
  call: 'endcall',
  filter: 'endfilter',
  set: 'endset',
};

/**
 * The engine reports no positions, so the failing tag is found by parsing each tag on its own
 * (a block opener with its end tag added). When every tag parses, the error is in the nesting:
 * the first end tag without its opener, or the first opener never closed.
 */
function syntaxErrorLine(text: string): number | undefined {
  const open: Array<{ end: string; line: number }> = [];
  for (const match of text.matchAll(TAG)) {
    const line = lineAt(text, match.index ?? 0);
    const statement = match[2];
    if (statement === undefined) {
      if (!parses(match[0])) return line;
      continue;
    }
    const word = /^\w+/.exec(statement)?.[0] ?? '';
    const blockEnd = word === 'set' && statement.includes('=') ? undefined : BLOCKS[word];
    if (blockEnd) {
      if (!parses(`${match[0]}{% ${blockEnd} %}`)) return line;
      open.push({ end: blockEnd, line });
    } else if (word === 'elif' || word === 'else') {
      if (!parses(`{% if true %}${match[0]}{% endif %}`) && !parses(`{% for x in [] %}${match[0]}{% endfor %}`)) return line;
    } else if (word.startsWith('end')) {
      if (open.pop()?.end !== word) return line;
    } else if (!parses(match[0])) {
      return line;
    }
  }
  return open[0]?.line;
}

function parses(source: string): boolean {
  try {
    parseTemplate(source);
    return true;
  } catch {
    return false;
  }
}
