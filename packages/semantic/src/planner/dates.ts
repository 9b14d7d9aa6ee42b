import { QueryError } from '../errors.js';

/**
 * Calendar arithmetic on "wall" times: a local date-time encoded as if it were UTC milliseconds.
 * Keeps zone handling in two functions (wallNow, wallToUtc) and everything else plain arithmetic.
 */
export type Unit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  const cached = formatters.get(tz);
  if (cached) return cached;
  const created = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  formatters.set(tz, created);
  return created;
}

/** 400 Gregorian years, to the millisecond: the calendar repeats after them. */
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;

/**
 * `Date.UTC` for every year: `Date.UTC` reads the years 0 to 99 as 1900 to 1999, so `2023 years ago`
 * landed in 1901. Those years are computed 400 years on, where the calendar is the same, and moved back.
 */
function utcWall(year: number, monthIndex: number, day = 1, hour = 0, minute = 0, second = 0, millisecond = 0): number {
  if (year < 0 || year > 99) return Date.UTC(year, monthIndex, day, hour, minute, second, millisecond);
  return Date.UTC(year + 400, monthIndex, day, hour, minute, second, millisecond) - FOUR_CENTURIES_MS;
}

/** The wall time in `tz` at a UTC instant. */
export function utcToWall(utcMs: number, tz: string): number {
  // UTC walls are the instants themselves; formatToParts showed up in every UTC query's profile.
  if (tz === 'UTC') return utcMs;
  const fields = new Map(
    formatter(tz)
      .formatToParts(new Date(utcMs))
      .map((part) => [part.type, Number(part.value)]),
  );
  const field = (type: Intl.DateTimeFormatPartTypes): number => fields.get(type) ?? 0;
  const wall = utcWall(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second'));
  // The formatter stops at seconds; milliseconds carry over unchanged (also before 1970, where % is negative).
  return wall + (((utcMs % 1000) + 1000) % 1000);
}

/**
 * The UTC instant of a wall time in `tz`. A wall time in a spring-forward gap moves forward, as with
 * moment: it is read with the offset from before the change. One that occurs twice (fall back) takes
 * the offset in force at the wall time read as UTC, the instant Cube's own conversion (`inDbTimeZone`)
 * picks: the later one east of UTC, the earlier one west of it. The second lookup corrects the hours
 * next to a change, which Cube's single lookup puts an hour off.
 */
export function wallToUtc(wall: number, tz: string): number {
  const offset1 = utcToWall(wall, tz) - wall;
  const guess = wall - offset1;
  const offset2 = utcToWall(guess, tz) - guess;
  const instant = wall - offset2;
  if (utcToWall(instant, tz) === wall) return instant;
  // In a gap the two offsets are those before and after the change; clocks go forward, so the earlier is the smaller.
  return wall - Math.min(offset1, offset2);
}

export function formatWall(wall: number): string {
  return new Date(wall).toISOString().slice(0, 23);
}

export function startOf(wall: number, unit: Unit): number {
  const date = new Date(wall);
  const year = date.getUTCFullYear(),
    month = date.getUTCMonth(),
    day = date.getUTCDate();
  switch (unit) {
    case 'second':
      return Math.floor(wall / 1000) * 1000;
    case 'minute':
      return Math.floor(wall / 60_000) * 60_000;
    case 'hour':
      return Math.floor(wall / 3_600_000) * 3_600_000;
    case 'day':
      return utcWall(year, month, day);
    case 'week':
      return utcWall(year, month, day - ((date.getUTCDay() + 6) % 7)); // ISO weeks start on Monday
    case 'month':
      return utcWall(year, month, 1);
    case 'quarter':
      return utcWall(year, month - (month % 3), 1);
    case 'year':
      return utcWall(year, 0, 1);
  }
}

export function add(wall: number, amount: number, unit: Unit): number {
  const fixed: Partial<Record<Unit, number>> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };
  const ms = fixed[unit];
  if (ms !== undefined) return wall + amount * ms;
  const months = unit === 'month' ? amount : unit === 'quarter' ? 3 * amount : 12 * amount;
  const date = new Date(wall);
  const targetMonth = date.getUTCMonth() + months;
  // Like moment: Jan 31 plus one month is the last day of February, not March 3.
  const lastDay = new Date(utcWall(date.getUTCFullYear(), targetMonth + 1, 0)).getUTCDate();
  return utcWall(
    date.getUTCFullYear(),
    targetMonth,
    Math.min(date.getUTCDate(), lastDay),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    date.getUTCMilliseconds(),
  );
}

export function endOf(wall: number, unit: Unit): number {
  return add(startOf(wall, unit), 1, unit) - 1;
}

// A zone part (`Z`, `+02:00`, `-0530`, `+02`) is accepted after a time, as Cube's gateway accepts it.
const ABSOLUTE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;
const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface AbsoluteDate {
  /** The date-time as written, ignoring any zone part. */
  readonly wall: number;
  /** Written exactly as `YYYY-MM-DD`: a whole day. */
  readonly wholeDay: boolean;
  /** Minutes east of UTC when the text names its zone (`Z` is 0); undefined when it does not. */
  readonly offsetMinutes?: number;
}

/**
 * Parses `2024-01-31`, `2024-01-31T10:00:00.000` or `2024-01-31T10:00:00Z` / `...+02:00` (surrounding
 * blanks allowed, as moment allows them); dates, times and offsets that do not exist (`2024-02-30`,
 * `10:60`, `+25:00`) are refused. `wholeDay` is true only for a date written exactly as `YYYY-MM-DD`:
 * Cube tests the unpadded text with that pattern and reads anything else, `' 2024-01-31 '` included, as an instant.
 */
export function parseAbsolute(text: string): AbsoluteDate | undefined {
  const match = ABSOLUTE.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millisecond = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const daysInMonth = new Date(utcWall(year, month, 0)).getUTCDate();
  // As in moment and ISO 8601, 24:00 is the midnight that ends the day.
  const endOfDay = hour === 24 && minute === 0 && second === 0 && millisecond === 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return undefined;
  const wall = utcWall(year, month - 1, day, hour, minute, second, millisecond);
  const zone = match[8];
  if (zone === undefined) return { wall, wholeDay: BARE_DATE.test(text) };
  const offsetMinutes = zoneOffsetMinutes(zone);
  return offsetMinutes === undefined ? undefined : { wall, wholeDay: false, offsetMinutes };
}

/** `Z`, `+02:00`, `-0530` or `+02` as minutes east of UTC; undefined past ±23:59, which moment refuses too. */
function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * The wall time in `tz` that an absolute date names. A date-time with a zone part names an instant,
 * shown on the clock of `tz`, as Cube does: its filters read values with `moment.tz(value, timezone)`, and
 * its gateway reads `dateRange` bounds with `moment.utc(value)` (so callers pass 'UTC' for those).
 */
export function absoluteWall(text: string, tz: string): { wall: number; wholeDay: boolean } | undefined {
  const parsed = parseAbsolute(text);
  if (!parsed || parsed.offsetMinutes === undefined) return parsed && { wall: parsed.wall, wholeDay: parsed.wholeDay };
  return { wall: utcToWall(parsed.wall - parsed.offsetMinutes * 60_000, tz), wholeDay: false };
}

function parseBound(text: string, tz: string): { wall: number; wholeDay: boolean } {
  const parsed = absoluteWall(text, tz);
  if (!parsed) throw new QueryError(`Can't parse date: '${text}'`);
  return parsed;
}

/**
 * A date-range bound as Cube formats it: a bare date starts at 00:00:00.000 or ends at 23:59:59.999.
 * `tz` is the zone whose clock a bound with a zone part is shown on (see absoluteWall).
 */
export function boundFrom(text: string, tz = 'UTC'): number {
  return parseBound(text, tz).wall;
}

export function boundTo(text: string, tz = 'UTC'): number {
  const { wall, wholeDay } = parseBound(text, tz);
  return wholeDay ? endOf(wall, 'day') : wall;
}
