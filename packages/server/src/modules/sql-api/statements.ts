/**
 * A simple Query may hold several statements: they are split where PostgreSQL's lexer would split
 * them (semicolons outside quotes, dollar quotes and comments), and each is answered in turn.
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "'" || c === '"') {
      i = endOfQuoted(text, i, c);
    } else if (c === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '/' && next === '*') {
      i = endOfBlockComment(text, i);
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.exec(text.slice(i))?.[0];
      if (tag) {
        const end = text.indexOf(tag, i + tag.length);
        i = end < 0 ? text.length : end + tag.length;
      } else i += 1;
    } else if (c === ';') {
      statements.push(text.slice(start, i));
      start = i + 1;
      i += 1;
    } else i += 1;
  }
  statements.push(text.slice(start));
  return statements.filter((s) => stripComments(s).trim() !== '');
}

function endOfQuoted(text: string, at: number, quote: string): number {
  let i = at + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return text.length;
}

function endOfBlockComment(text: string, at: number): number {
  let depth = 0;
  let i = at;
  while (i < text.length) {
    if (text[i] === '/' && text[i + 1] === '*') {
      depth += 1;
      i += 2;
    } else if (text[i] === '*' && text[i + 1] === '/') {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else i += 1;
  }
  return text.length;
}

/** The statement without its comments (quoted text kept as it is), for reading its leading words. */
export function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = endOfQuoted(text, i, c);
      out += text.slice(i, end);
      i = end;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else if (c === '/' && text[i + 1] === '*') {
      i = endOfBlockComment(text, i);
      out += ' ';
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The statement's first words, upper-cased: what kind of statement it is. */
export function leadingWords(statement: string, count = 2): string[] {
  return stripComments(statement)
    .trim()
    .replace(/^\(+/, '')
    .split(/[\s(;]+/)
    .filter(Boolean)
    .slice(0, count)
    .map((w) => w.toUpperCase());
}

/** How many parameters (`$n`, the highest n) a statement takes. */
export function paramCount(sql: string): number {
  let highest = 0;
  const probe = withoutQuoted(sql);
  for (const match of probe.matchAll(/\$([1-9][0-9]*)/g)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

/** The statement with its quoted text and comments blanked, so `$n` inside them is not counted. */
function withoutQuoted(sql: string): string {
  return stripComments(sql).replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, "''");
}
