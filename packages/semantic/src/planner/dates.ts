import { QueryError } from '../errors.js';

/**
 * Calendar arithmetic on "wall" times: a local date-time encoded as if it were UTC milliseconds.
 * Keeps zone handling in two functions (wallNow, wallToUtc) and everything else plain arithmetic.
 */
export type Unit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall time in `tz` at a UTC instant. */
export function utcToWall(utcMs: number, tz: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(utcMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(
    parts['year'] ?? 1970,
    (parts['month'] ?? 1) - 1,
    parts['day'] ?? 1,
    parts['hour'] ?? 0,
    parts['minute'] ?? 0,
    parts['second'] ?? 0,
  );
  return wall + (((utcMs % 1000) + 1000) % 1000);
}

/** The UTC instant of a wall time in `tz`; a wall time in a spring-forward gap moves forward, as with moment. */
export function wallToUtc(wall: number, tz: string): number {
  const offset1 = utcToWall(wall, tz) - wall;
  const guess = wall - offset1;
  const offset2 = utcToWall(guess, tz) - guess;
  return wall - offset2;
}

export function formatWall(wall: number): string {
  return new Date(wall).toISOString().slice(0, 23);
}

export function startOf(wall: number, unit: Unit): number {
  const d = new Date(wall);
  const y = d.getUTCFullYear(),
    m = d.getUTCMonth(),
    day = d.getUTCDate();
  switch (unit) {
    case 'second':
      return Math.floor(wall / 1000) * 1000;
    case 'minute':
      return Math.floor(wall / 60_000) * 60_000;
    case 'hour':
      return Math.floor(wall / 3_600_000) * 3_600_000;
    case 'day':
      return Date.UTC(y, m, day);
    case 'week':
      return Date.UTC(y, m, day - ((d.getUTCDay() + 6) % 7)); // ISO weeks start on Monday
    case 'month':
      return Date.UTC(y, m, 1);
    case 'quarter':
      return Date.UTC(y, m - (m % 3), 1);
    case 'year':
      return Date.UTC(y, 0, 1);
  }
}

export function add(wall: number, n: number, unit: Unit): number {
  const fixed: Partial<Record<Unit, number>> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };
  const ms = fixed[unit];
  if (ms !== undefined) return wall + n * ms;
  const months = unit === 'month' ? n : unit === 'quarter' ? 3 * n : 12 * n;
  const d = new Date(wall);
  const targetMonth = d.getUTCMonth() + months;
  // Like moment: Jan 31 plus one month is the last day of February, not March 3.
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), targetMonth + 1, 0)).getUTCDate();
  return Date.UTC(
    d.getUTCFullYear(),
    targetMonth,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

export function endOf(wall: number, unit: Unit): number {
  return add(startOf(wall, unit), 1, unit) - 1;
}

const ABSOLUTE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?$/;

/** Parses `2024-01-31` or `2024-01-31T10:00:00.000` into a wall time; `hasTime` says if a time was given. */
export function parseAbsolute(text: string): { wall: number; hasTime: boolean } | undefined {
  const m = ABSOLUTE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac] = m;
  const wall = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h ?? 0),
    Number(mi ?? 0),
    Number(s ?? 0),
    Math.floor(Number(`0.${frac ?? '0'}`) * 1000),
  );
  const check = new Date(wall);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return undefined;
  return { wall, hasTime: h !== undefined };
}

/** A date-range bound as Cube formats it: a bare date starts at 00:00:00.000 or ends at 23:59:59.999. */
export function boundFrom(text: string): number {
  const p = parseAbsolute(text);
  if (!p) throw new QueryError(`Can't parse date: '${text}'`);
  return p.hasTime ? p.wall : startOf(p.wall, 'day');
}

export function boundTo(text: string): number {
  const p = parseAbsolute(text);
  if (!p) throw new QueryError(`Can't parse date: '${text}'`);
  return p.hasTime ? p.wall : endOf(p.wall, 'day');
}
