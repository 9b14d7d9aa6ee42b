import { QueryError } from '../errors.js';
import { add, endOf, parseAbsolute, startOf, utcToWall, type Unit } from './dates.js';

const UNIT = '(second|minute|hour|day|week|month|quarter|year)';

/** Cube's relative date ranges (`last 7 days`, `this month`, `from 7 days ago to now`) as local wall times. */
export function relativeRange(phrase: string, tz: string, nowUtc: number): [number, number] {
  const text = phrase.toLowerCase().trim();
  const now = utcToWall(nowUtc, tz);
  let m = new RegExp(`(this|last|next)\\s+${UNIT}`).exec(text);
  if (m) {
    const unit = m[2] as Unit;
    const shift = m[1] === 'last' ? -1 : m[1] === 'next' ? 1 : 0;
    const at = add(now, shift, unit);
    return [startOf(at, unit), endOf(at, unit)];
  }
  m = new RegExp(`(last|next)\\s+(\\d+)\\s+${UNIT}`).exec(text);
  if (m) {
    const n = Number(m[2]);
    const unit = m[3] as Unit;
    // As in Cube: `last 7 days` ends yesterday; `next 3 months` starts next month.
    return m[1] === 'last'
      ? [startOf(add(now, -n, unit), unit), endOf(add(now, -1, unit), unit)]
      : [startOf(add(now, 1, unit), unit), endOf(add(now, n, unit), unit)];
  }
  if (text.includes('today')) return [startOf(now, 'day'), endOf(now, 'day')];
  if (text.includes('yesterday')) return [startOf(add(now, -1, 'day'), 'day'), endOf(add(now, -1, 'day'), 'day')];
  if (text.includes('tomorrow')) return [startOf(add(now, 1, 'day'), 'day'), endOf(add(now, 1, 'day'), 'day')];
  const exact: Unit = (['second', 'minute', 'hour'] as const).find((g) => text.includes(g)) ?? 'day';
  const fromTo = /^from\s+(.{1,50}?)\s+to\s+(.{1,50})$/.exec(text);
  if (fromTo) {
    const from = pointInTime(fromTo[1] ?? '', now);
    const to = pointInTime(fromTo[2] ?? '', now);
    return [startOf(from, exact), endOf(to, exact)];
  }
  const at = pointInTime(text, now);
  return [startOf(at, exact), endOf(at, exact)];
}

/** The subset of natural-language instants Cube's parser is used with in practice. */
function pointInTime(text: string, now: number): number {
  const t = text.trim();
  if (t === 'now') return now;
  if (t === 'today') return now;
  if (t === 'yesterday') return add(now, -1, 'day');
  if (t === 'tomorrow') return add(now, 1, 'day');
  const ago = new RegExp(`^(\\d+|a|an)\\s+${UNIT}s?\\s+ago$`).exec(t);
  if (ago) return add(now, -count(ago[1]), ago[2] as Unit);
  const ahead = new RegExp(`^(?:in\\s+(\\d+|a|an)\\s+${UNIT}s?|(\\d+|a|an)\\s+${UNIT}s?\\s+from\\s+now)$`).exec(t);
  if (ahead) return add(now, count(ahead[1] ?? ahead[3]), (ahead[2] ?? ahead[4]) as Unit);
  const abs = parseAbsolute(t);
  if (abs) return abs.wall;
  throw new QueryError(`Can't parse date: '${text}'`);
}

function count(v: string | undefined): number {
  return v === 'a' || v === 'an' ? 1 : Number(v);
}
