import { SqlFailure } from './errors.js';
import { stripComments } from './statements.js';

/** `DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO] SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query`. */
export interface Declare {
  name: string;
  query: string;
  hold: boolean;
  binary: boolean;
}

/** `FETCH` or `MOVE`: how many rows forward (Infinity for ALL) from which cursor. */
export interface Fetch {
  move: boolean;
  count: number;
  name: string;
}

const NAME = String.raw`("(?:[^"]|"")+"|[A-Za-z_][\w$]*)`;

const text = (sql: string) => stripComments(sql).trim().replace(/;\s*$/, '');

/** A cursor's name as PostgreSQL folds it: quoted as written, else lower case. */
export const nameOf = (raw: string) => (raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw.toLowerCase());

const DECLARE = new RegExp(
  String.raw`^declare\s+${NAME}\s+((?:(?:binary|asensitive|insensitive|no\s+scroll|scroll)\s+)*)cursor\s+(?:(with|without)\s+hold\s+)?for\s+([\s\S]+)$`,
  'i',
);

export function parseDeclare(sql: string): Declare {
  const match = DECLARE.exec(text(sql));
  if (!match) throw new SqlFailure('42601', 'DECLARE could not be read: write DECLARE name [NO SCROLL] CURSOR [WITH HOLD] FOR query');
  const options = match[2]!.toLowerCase().split(/\s+/).filter(Boolean).join(' ');
  if (/\bscroll\b/.test(options.replace(/\bno scroll\b/g, ''))) {
    throw new SqlFailure('0A000', 'SCROLL cursors are not supported: the SQL API streams results, so its cursors read forward only');
  }
  return { name: nameOf(match[1]!), query: match[4]!, hold: match[3]?.toLowerCase() === 'with', binary: /\bbinary\b/.test(options) };
}

const FETCH = new RegExp(String.raw`^(fetch|move)\s+(?:([\s\S]*?)\s+)??(?:(?:from|in)\s+)?${NAME}$`, 'i');

const backward = () =>
  new SqlFailure('55000', 'cursor can only scan forward', 'The SQL API streams results: its cursors read forward only.');

export function parseFetch(sql: string): Fetch {
  const match = FETCH.exec(text(sql));
  if (!match) throw new SqlFailure('42601', 'FETCH could not be read: write FETCH [FORWARD] [count | ALL] [FROM] name');
  const move = match[1]!.toUpperCase() === 'MOVE';
  const direction = (match[2] ?? '').trim().toUpperCase().split(/\s+/).filter(Boolean);
  const name = nameOf(match[3]!);
  const countOf = (word: string | undefined): number => {
    if (word === undefined) return 1;
    if (word === 'ALL') return Infinity;
    if (!/^[+-]?\d+$/.test(word)) throw new SqlFailure('42601', `syntax error at or near "${word}"`);
    const count = Number(word);
    if (count < 0) throw backward();
    if (count === 0) throw new SqlFailure('0A000', 'FETCH 0 (the current row again) is not supported: the SQL API streams results');
    return count;
  };
  const [first, second, ...rest] = direction;
  if (rest.length > 0) throw new SqlFailure('42601', `syntax error at or near "${rest[0]}"`);
  if (first === undefined || first === 'NEXT') {
    if (second !== undefined) throw new SqlFailure('42601', `syntax error at or near "${second}"`);
    return { move, count: 1, name };
  }
  if (first === 'FORWARD') return { move, count: countOf(second), name };
  if (['PRIOR', 'FIRST', 'LAST', 'ABSOLUTE', 'RELATIVE', 'BACKWARD'].includes(first)) throw backward();
  if (second !== undefined) throw new SqlFailure('42601', `syntax error at or near "${second}"`);
  return { move, count: countOf(first), name };
}

/** `CLOSE name` or `CLOSE ALL`: the cursor's name, or null for all. */
export function parseClose(sql: string): string | null {
  const match = new RegExp(String.raw`^close\s+${NAME}$`, 'i').exec(text(sql));
  if (!match) throw new SqlFailure('42601', 'CLOSE could not be read: write CLOSE name or CLOSE ALL');
  return match[1]!.toUpperCase() === 'ALL' ? null : nameOf(match[1]!);
}
