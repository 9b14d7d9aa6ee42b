import { QueryError } from '../errors.js';
import { absoluteWall, add, endOf, startOf, utcToWall, type Unit } from './dates.js';

const UNIT = '(second|minute|hour|day|week|month|quarter|year)';
const CLOCK_MS: Partial<Record<Unit, number>> = { second: 1000, minute: 60_000, hour: 3_600_000 };

/**
 * The wall time `count` units from now, as Cube's parser (moment) moves it: days and longer move the
 * calendar and keep the time of day, hours and shorter move the instant. Across a DST change they
 * differ: an hour before 03:30 on the spring-forward day in Berlin is 01:30, not 02:30.
 */
function shifted(nowUtc: number, count: number, unit: Unit, tz: string): number {
  const ms = CLOCK_MS[unit];
  return ms === undefined ? add(utcToWall(nowUtc, tz), count, unit) : utcToWall(nowUtc + count * ms, tz);
}

/** The first and last instants of the years 0001 to 9999, which both warehouses and ISO text can hold. */
const EARLIEST_WALL = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_WALL = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Cube's relative date ranges (`last 7 days`, `this month`, `from 7 days ago to now`) as local wall
 * times. A range that leaves the years 0001 to 9999 (`last 1000000 days`) is refused by name: past
 * them JavaScript's dates end ("Invalid time value") and PostgreSQL refuses the zone conversion.
 */
export function relativeRange(phrase: string, tz: string, nowUtc: number): [number, number] {
  const range = rangeOf(phrase, tz, nowUtc);
  if (!range.every((wall) => wall >= EARLIEST_WALL && wall <= LATEST_WALL)) {
    throw new QueryError(`Date range '${phrase}' reaches outside the years 0001 to 9999`);
  }
  return range;
}

function rangeOf(phrase: string, tz: string, nowUtc: number): [number, number] {
  const text = phrase.toLowerCase().trim();
  const now = utcToWall(nowUtc, tz);
  let match = new RegExp(`(this|last|next)\\s+${UNIT}`).exec(text);
  if (match) {
    const unit = match[2] as Unit;
    const at = shifted(nowUtc, match[1] === 'last' ? -1 : match[1] === 'next' ? 1 : 0, unit, tz);
    return [startOf(at, unit), endOf(at, unit)];
  }
  match = new RegExp(`(last|next)\\s+(\\d+)\\s+${UNIT}`).exec(text);
  if (match) {
    const amount = Number(match[2]);
    const unit = match[3] as Unit;
    // As in Cube: `last 7 days` ends yesterday; `next 3 months` starts next month.
    const [first, last] = match[1] === 'last' ? [-amount, -1] : [1, amount];
    return [startOf(shifted(nowUtc, first, unit, tz), unit), endOf(shifted(nowUtc, last, unit, tz), unit)];
  }
  // Cube looks for these words anywhere in the phrase, before it tries `from … to …`.
  if (text.includes('today')) return [startOf(now, 'day'), endOf(now, 'day')];
  if (text.includes('yesterday')) return [startOf(add(now, -1, 'day'), 'day'), endOf(add(now, -1, 'day'), 'day')];
  if (text.includes('tomorrow')) return [startOf(add(now, 1, 'day'), 'day'), endOf(add(now, 1, 'day'), 'day')];
  const exact: Unit = (['second', 'minute', 'hour'] as const).find((g) => text.includes(g)) ?? 'day';
  const fromTo = /^from\s+(.{1,50}?)\s+to\s+(.{1,50})$/.exec(text);
  if (fromTo) {
    // Both groups always match; String() only tells the compiler so.
    const from = pointInTime(String(fromTo[1]), now, tz);
    const to = pointInTime(String(fromTo[2]), now, tz);
    return [startOf(from, exact), endOf(to, exact)];
  }
  const at = pointInTime(text, now, tz);
  return [startOf(at, exact), endOf(at, exact)];
}

/**
 * The subset of natural-language instants Cube's parser (chrono) is used with in practice. chrono
 * counts on the wall clock, so `2 hours ago` is two wall-clock hours here. `today`, `yesterday` and
 * `tomorrow` never reach this: relativeRange answers any phrase that names them.
 */
function pointInTime(text: string, now: number, tz: string): number {
  if (text === 'now') return now;
  const ago = new RegExp(`^(\\d+|a|an)\\s+${UNIT}s?\\s+ago$`).exec(text);
  if (ago) return add(now, -count(ago[1]), ago[2] as Unit);
  const ahead = new RegExp(`^(?:in\\s+(\\d+|a|an)\\s+${UNIT}s?|(\\d+|a|an)\\s+${UNIT}s?\\s+from\\s+now)$`).exec(text);
  if (ahead) return add(now, count(ahead[1] ?? ahead[3]), (ahead[2] ?? ahead[4]) as Unit);
  const abs = absoluteWall(text, tz);
  if (abs) return abs.wall;
  throw new QueryError(`Can't parse date: '${text}'`);
}

function count(word: string | undefined): number {
  return word === 'a' || word === 'an' ? 1 : Number(word);
}
