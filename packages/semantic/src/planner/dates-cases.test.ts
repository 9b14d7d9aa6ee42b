import { describe, expect, it } from 'vitest';
import { QueryError } from '../errors.js';
import { add, boundFrom, boundTo, endOf, formatWall, parseAbsolute, startOf, utcToWall, wallToUtc, type Unit } from './dates.js';
import { relativeRange } from './relative-dates.js';

/**
 * Calendar arithmetic and Cube's relative date ranges, case by case (stryker.config.mjs scores
 * dates.ts and relative-dates.ts against this file alone). Wall times are written as ISO text
 * without a zone; `wall()` reads them as the arithmetic's UTC-encoded numbers.
 */
const wall = (text: string): number => Date.parse(`${text}Z`);
const utc = (text: string): number => Date.parse(`${text}Z`);

// Wednesday 15 May 2024, 12:00 UTC (14:00 in Berlin, 08:00 in New York).
const NOW = utc('2024-05-15T12:00:00.000');
// The same day with every field set, so that each truncation shows.
const NOW_FINE = utc('2024-05-15T12:34:56.789');

describe('relative date ranges (local wall times, as Cube computes them)', () => {
  it.each([
    ['today', 'UTC', '2024-05-15T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['yesterday', 'UTC', '2024-05-14T00:00:00.000', '2024-05-14T23:59:59.999'],
    ['tomorrow', 'UTC', '2024-05-16T00:00:00.000', '2024-05-16T23:59:59.999'],
    ['Today', 'UTC', '2024-05-15T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['this month', 'UTC', '2024-05-01T00:00:00.000', '2024-05-31T23:59:59.999'],
    ['last month', 'UTC', '2024-04-01T00:00:00.000', '2024-04-30T23:59:59.999'],
    ['next month', 'UTC', '2024-06-01T00:00:00.000', '2024-06-30T23:59:59.999'],
    ['  Last  Month ', 'UTC', '2024-04-01T00:00:00.000', '2024-04-30T23:59:59.999'],
    ['this week', 'UTC', '2024-05-13T00:00:00.000', '2024-05-19T23:59:59.999'],
    ['last week', 'UTC', '2024-05-06T00:00:00.000', '2024-05-12T23:59:59.999'],
    ['this quarter', 'UTC', '2024-04-01T00:00:00.000', '2024-06-30T23:59:59.999'],
    ['last quarter', 'UTC', '2024-01-01T00:00:00.000', '2024-03-31T23:59:59.999'],
    ['next quarter', 'UTC', '2024-07-01T00:00:00.000', '2024-09-30T23:59:59.999'],
    ['this year', 'UTC', '2024-01-01T00:00:00.000', '2024-12-31T23:59:59.999'],
    ['last year', 'UTC', '2023-01-01T00:00:00.000', '2023-12-31T23:59:59.999'],
    ['this day', 'UTC', '2024-05-15T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['last 7 days', 'UTC', '2024-05-08T00:00:00.000', '2024-05-14T23:59:59.999'],
    ['last 10 days', 'UTC', '2024-05-05T00:00:00.000', '2024-05-14T23:59:59.999'],
    ['last  2  weeks', 'UTC', '2024-04-29T00:00:00.000', '2024-05-12T23:59:59.999'],
    ['last 3 months', 'UTC', '2024-02-01T00:00:00.000', '2024-04-30T23:59:59.999'],
    ['last 2 quarters', 'UTC', '2023-10-01T00:00:00.000', '2024-03-31T23:59:59.999'],
    ['next 2 weeks', 'UTC', '2024-05-20T00:00:00.000', '2024-06-02T23:59:59.999'],
    ['next 2 years', 'UTC', '2025-01-01T00:00:00.000', '2026-12-31T23:59:59.999'],
    ['from 7 days ago to now', 'UTC', '2024-05-08T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['from  7 days ago  to  now', 'UTC', '2024-05-08T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['  From 7 days ago to now', 'UTC', '2024-05-08T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['from 2 hours ago to now', 'UTC', '2024-05-15T10:00:00.000', '2024-05-15T12:59:59.999'],
    ['from 2024-01-01 to 2024-01-31', 'UTC', '2024-01-01T00:00:00.000', '2024-01-31T23:59:59.999'],
    // The phrase is read in lower case, and only the words second, minute and hour narrow the range.
    ['from 2024-01-01T10:00:10.5 to 2024-01-02T12:00:20', 'UTC', '2024-01-01T00:00:00.000', '2024-01-02T23:59:59.999'],
    ['from a week ago to in 2 days', 'UTC', '2024-05-08T00:00:00.000', '2024-05-17T23:59:59.999'],
    ['from an hour ago to 3 hours from now', 'UTC', '2024-05-15T11:00:00.000', '2024-05-15T15:59:59.999'],
    ['from 1 month ago to in a month', 'UTC', '2024-04-15T00:00:00.000', '2024-06-15T23:59:59.999'],
    ['from 2 days ago to a day from now', 'UTC', '2024-05-13T00:00:00.000', '2024-05-16T23:59:59.999'],
    ['from 10 days ago to in an hour', 'UTC', '2024-05-05T12:00:00.000', '2024-05-15T13:59:59.999'],
    ['now', 'UTC', '2024-05-15T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['3 days ago', 'UTC', '2024-05-12T00:00:00.000', '2024-05-12T23:59:59.999'],
    ['in 2 weeks', 'UTC', '2024-05-29T00:00:00.000', '2024-05-29T23:59:59.999'],
    ['2024-02-29', 'UTC', '2024-02-29T00:00:00.000', '2024-02-29T23:59:59.999'],
    // Cube matches these words anywhere, before it reads `from … to …`.
    ['from yesterday to today', 'UTC', '2024-05-15T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['from 3 days ago to yesterday', 'UTC', '2024-05-14T00:00:00.000', '2024-05-14T23:59:59.999'],
    ['until tomorrow', 'UTC', '2024-05-16T00:00:00.000', '2024-05-16T23:59:59.999'],
    ['today', 'Pacific/Kiritimati', '2024-05-16T00:00:00.000', '2024-05-16T23:59:59.999'],
    ['yesterday', 'America/New_York', '2024-05-14T00:00:00.000', '2024-05-14T23:59:59.999'],
    ['this month', 'Pacific/Pago_Pago', '2024-05-01T00:00:00.000', '2024-05-31T23:59:59.999'],
  ])('%s in %s', (phrase, tz, from, to) => {
    expect(relativeRange(phrase, tz, NOW).map(formatWall)).toEqual([from, to]);
  });

  it.each([
    ['this second', '2024-05-15T12:34:56.000', '2024-05-15T12:34:56.999'],
    ['next second', '2024-05-15T12:34:57.000', '2024-05-15T12:34:57.999'],
    ['this minute', '2024-05-15T12:34:00.000', '2024-05-15T12:34:59.999'],
    ['last minute', '2024-05-15T12:33:00.000', '2024-05-15T12:33:59.999'],
    ['this hour', '2024-05-15T12:00:00.000', '2024-05-15T12:59:59.999'],
    ['last 30 seconds', '2024-05-15T12:34:26.000', '2024-05-15T12:34:55.999'],
    ['next 2 minutes', '2024-05-15T12:35:00.000', '2024-05-15T12:36:59.999'],
    ['last 2 hours', '2024-05-15T10:00:00.000', '2024-05-15T11:59:59.999'],
    ['from 90 seconds ago to now', '2024-05-15T12:33:26.000', '2024-05-15T12:34:56.999'],
    ['from 5 minutes ago to now', '2024-05-15T12:29:00.000', '2024-05-15T12:34:59.999'],
    ['from now to in 2 minutes', '2024-05-15T12:34:00.000', '2024-05-15T12:36:59.999'],
  ])('%s at 12:34:56.789 (second and minute granularity)', (phrase, from, to) => {
    expect(relativeRange(phrase, 'UTC', NOW_FINE).map(formatWall)).toEqual([from, to]);
  });

  // Europe/Berlin moves from 02:00 CET to 03:00 CEST at 01:00 UTC on 31 March 2024 and back at
  // 01:00 UTC on 27 October; America/New_York falls back from 02:00 EDT to 01:00 EST at 06:00 UTC
  // on 3 November 2024. Day ranges keep local midnight, so one of them is 23 or 25 hours long;
  // hours count on the instant, as moment does in Cube.
  it.each([
    [
      'last 7 days',
      'Europe/Berlin',
      '2024-04-02T10:00:00.000',
      '2024-03-26T00:00:00.000',
      '2024-04-01T23:59:59.999',
      '2024-03-25T23:00:00.000',
      '2024-04-01T21:59:59.999',
    ],
    [
      'this quarter',
      'Europe/Berlin',
      '2024-03-15T10:00:00.000',
      '2024-01-01T00:00:00.000',
      '2024-03-31T23:59:59.999',
      '2023-12-31T23:00:00.000',
      '2024-03-31T21:59:59.999',
    ],
    [
      'from 3 days ago to now',
      'Europe/Berlin',
      '2024-04-01T10:00:00.000',
      '2024-03-29T00:00:00.000',
      '2024-04-01T23:59:59.999',
      '2024-03-28T23:00:00.000',
      '2024-04-01T21:59:59.999',
    ],
    [
      'today',
      'Europe/Berlin',
      '2024-03-31T12:00:00.000',
      '2024-03-31T00:00:00.000',
      '2024-03-31T23:59:59.999',
      '2024-03-30T23:00:00.000',
      '2024-03-31T21:59:59.999',
    ],
    [
      'yesterday',
      'America/New_York',
      '2024-11-04T12:00:00.000',
      '2024-11-03T00:00:00.000',
      '2024-11-03T23:59:59.999',
      '2024-11-03T04:00:00.000',
      '2024-11-04T04:59:59.999',
    ],
    [
      'last week',
      'America/New_York',
      '2024-11-06T12:00:00.000',
      '2024-10-28T00:00:00.000',
      '2024-11-03T23:59:59.999',
      '2024-10-28T04:00:00.000',
      '2024-11-04T04:59:59.999',
    ],
    // 03:30 CEST: the hour before is 01:00–02:00 CET, not the skipped 02:00 hour.
    [
      'last hour',
      'Europe/Berlin',
      '2024-03-31T01:30:00.000',
      '2024-03-31T01:00:00.000',
      '2024-03-31T01:59:59.999',
      '2024-03-31T00:00:00.000',
      '2024-03-31T00:59:59.999',
    ],
    [
      'last 2 hours',
      'Europe/Berlin',
      '2024-03-31T01:30:00.000',
      '2024-03-31T00:00:00.000',
      '2024-03-31T01:59:59.999',
      '2024-03-30T23:00:00.000',
      '2024-03-31T00:59:59.999',
    ],
    [
      'next hour',
      'Europe/Berlin',
      '2024-03-31T00:30:00.000',
      '2024-03-31T03:00:00.000',
      '2024-03-31T03:59:59.999',
      '2024-03-31T01:00:00.000',
      '2024-03-31T01:59:59.999',
    ],
    [
      'last 90 minutes',
      'Europe/Berlin',
      '2024-03-31T01:10:00.000',
      '2024-03-31T00:40:00.000',
      '2024-03-31T03:09:59.999',
      '2024-03-30T23:40:00.000',
      '2024-03-31T01:09:59.999',
    ],
    // chrono counts `2 hours ago` on the wall clock: 03:30 less two hours is 01:30.
    [
      'from 2 hours ago to now',
      'Europe/Berlin',
      '2024-03-31T01:30:00.000',
      '2024-03-31T01:00:00.000',
      '2024-03-31T03:59:59.999',
      '2024-03-31T00:00:00.000',
      '2024-03-31T01:59:59.999',
    ],
    // 01:30 EST, the second 01:30 of the night: the hour before is 01:00 EDT.
    [
      'last hour',
      'America/New_York',
      '2024-11-03T06:30:00.000',
      '2024-11-03T01:00:00.000',
      '2024-11-03T01:59:59.999',
      '2024-11-03T05:00:00.000',
      '2024-11-03T05:59:59.999',
    ],
  ])('%s in %s at %s UTC', (phrase, tz, now, fromWall, toWall, fromUtc, toUtc) => {
    const range = relativeRange(phrase, tz, utc(now));
    expect(range.map(formatWall)).toEqual([fromWall, toWall]);
    expect(range.map((w) => formatWall(wallToUtc(w, tz)))).toEqual([fromUtc, toUtc]);
  });

  it.each([
    'whenever',
    'from 3 days ago',
    'soon 3 days ago',
    '3 days ago please',
    'in 3 days or so',
    'from 2024-02-30 to now',
    'from now to 3 daysago',
    'since from 7 days ago to now',
    // Each end of `from … to …` is at most 50 characters long.
    `from 7 days ago to 2024-01-31${' '.repeat(45)}and more`,
  ])('refuses %s with a message naming it', (phrase) => {
    expect(() => relativeRange(phrase, 'UTC', NOW)).toThrow(QueryError);
    expect(() => relativeRange(phrase, 'UTC', NOW)).toThrow(/^Can't parse date: '.+'$/);
  });

  it.each([
    'last 1000000 days',
    'next 8000 years',
    'last 99999999999999 years',
    'from 2025 years ago to now',
    'in 7976 years',
    'next 7976 years',
  ])('refuses %s, which leaves the years 0001 to 9999, naming it', (phrase) => {
    expect(() => relativeRange(phrase, 'UTC', NOW)).toThrow(
      new QueryError(`Date range '${phrase}' reaches outside the years 0001 to 9999`),
    );
  });

  it.each([
    ['from 2023 years ago to now', 'UTC', '0001-05-15T00:00:00.000'],
    ['next 7975 years', 'UTC', '9999-12-31T23:59:59.999'],
    // Date.UTC alone reads the years 0 to 99 as 1900 to 1999.
    ['from 1974 years ago to now', 'America/New_York', '0050-05-15T00:00:00.000'],
  ])('keeps %s, which ends inside the years 0001 to 9999', (phrase, tz, edge) => {
    expect(relativeRange(phrase, tz, NOW).map(formatWall)).toContain(edge);
  });

  it('names the part of a range it cannot read', () => {
    expect(() => relativeRange('from 3 weeks ago to later', 'UTC', NOW)).toThrow(new QueryError("Can't parse date: 'later'"));
  });
});

describe('wall times and instants', () => {
  it.each([
    ['2024-01-01T00:00:00.000', 'America/New_York', '2024-01-01T05:00:00.000'],
    ['2024-07-01T00:00:00.000', 'America/New_York', '2024-07-01T04:00:00.000'],
    ['2024-01-01T00:00:00.000', 'Asia/Kolkata', '2023-12-31T18:30:00.000'],
    ['2024-01-01T00:00:00.000', 'UTC', '2024-01-01T00:00:00.000'],
    // In the spring-forward gap: moves forward, like moment.
    ['2024-03-31T02:30:00.000', 'Europe/Berlin', '2024-03-31T01:30:00.000'],
    ['2024-03-10T02:30:00.000', 'America/New_York', '2024-03-10T07:30:00.000'],
    // Just before and after a change, where a single offset lookup would be an hour off.
    ['2024-03-31T01:30:00.000', 'Europe/Berlin', '2024-03-31T00:30:00.000'],
    ['2024-03-10T03:30:00.000', 'America/New_York', '2024-03-10T07:30:00.000'],
    // Twice in the night of the fall-back: the instant Cube's inDbTimeZone picks.
    ['2024-10-27T02:30:00.000', 'Europe/Berlin', '2024-10-27T01:30:00.000'],
    ['2024-11-03T01:30:00.000', 'America/New_York', '2024-11-03T05:30:00.000'],
    // Lord Howe Island moves its clocks by half an hour.
    ['2024-10-06T02:15:00.000', 'Australia/Lord_Howe', '2024-10-05T15:45:00.000'],
  ])('local %s in %s is %s UTC', (local, tz, instant) => {
    expect(formatWall(wallToUtc(wall(local), tz))).toBe(instant);
  });

  it.each([
    ['2024-05-15T12:34:56.789', 'UTC', '2024-05-15T12:34:56.789'],
    ['2024-05-15T12:34:56.789', 'Asia/Kolkata', '2024-05-15T18:04:56.789'],
    ['2024-12-31T23:59:59.999', 'America/New_York', '2024-12-31T18:59:59.999'],
    ['2024-03-31T01:00:00.000', 'Europe/Berlin', '2024-03-31T03:00:00.000'],
    ['1969-12-31T23:59:59.500', 'UTC', '1969-12-31T23:59:59.500'],
    ['1969-12-31T23:59:59.001', 'Europe/Berlin', '1970-01-01T00:59:59.001'],
  ])('instant %s is %s in %s', (instant, tz, local) => {
    expect(formatWall(utcToWall(utc(instant), tz))).toBe(local);
  });
});

describe('calendar arithmetic', () => {
  const T = '2024-05-15T12:34:56.789'; // a Wednesday
  it.each<[string, Unit, string, string]>([
    [T, 'second', '2024-05-15T12:34:56.000', '2024-05-15T12:34:56.999'],
    [T, 'minute', '2024-05-15T12:34:00.000', '2024-05-15T12:34:59.999'],
    [T, 'hour', '2024-05-15T12:00:00.000', '2024-05-15T12:59:59.999'],
    [T, 'day', '2024-05-15T00:00:00.000', '2024-05-15T23:59:59.999'],
    [T, 'week', '2024-05-13T00:00:00.000', '2024-05-19T23:59:59.999'],
    ['2024-05-19T23:00:00.000', 'week', '2024-05-13T00:00:00.000', '2024-05-19T23:59:59.999'], // Sunday
    ['2024-05-13T00:00:00.000', 'week', '2024-05-13T00:00:00.000', '2024-05-19T23:59:59.999'], // Monday
    [T, 'month', '2024-05-01T00:00:00.000', '2024-05-31T23:59:59.999'],
    ['2024-02-10T00:00:00.000', 'month', '2024-02-01T00:00:00.000', '2024-02-29T23:59:59.999'],
    [T, 'quarter', '2024-04-01T00:00:00.000', '2024-06-30T23:59:59.999'],
    ['2024-12-31T23:59:59.999', 'quarter', '2024-10-01T00:00:00.000', '2024-12-31T23:59:59.999'],
    ['2024-03-01T00:00:00.000', 'quarter', '2024-01-01T00:00:00.000', '2024-03-31T23:59:59.999'],
    [T, 'year', '2024-01-01T00:00:00.000', '2024-12-31T23:59:59.999'],
    ['1969-12-31T23:59:59.500', 'second', '1969-12-31T23:59:59.000', '1969-12-31T23:59:59.999'],
    ['1969-12-31T23:59:30.000', 'minute', '1969-12-31T23:59:00.000', '1969-12-31T23:59:59.999'],
    ['1969-12-31T23:30:00.000', 'hour', '1969-12-31T23:00:00.000', '1969-12-31T23:59:59.999'],
    // Date.UTC alone reads the years 0 to 99 as 1900 to 1999.
    ['0050-05-15T12:00:00.000', 'week', '0050-05-09T00:00:00.000', '0050-05-15T23:59:59.999'],
    ['0099-12-31T23:00:00.000', 'quarter', '0099-10-01T00:00:00.000', '0099-12-31T23:59:59.999'],
    ['0001-01-01T00:00:00.000', 'year', '0001-01-01T00:00:00.000', '0001-12-31T23:59:59.999'],
  ])('%s: the %s runs from %s to %s', (at, unit, start, end) => {
    expect(formatWall(startOf(wall(at), unit))).toBe(start);
    expect(formatWall(endOf(wall(at), unit))).toBe(end);
  });

  it.each<[string, number, Unit, string]>([
    [T, 1, 'second', '2024-05-15T12:34:57.789'],
    [T, -90, 'minute', '2024-05-15T11:04:56.789'],
    [T, 13, 'hour', '2024-05-16T01:34:56.789'],
    [T, -15, 'day', '2024-04-30T12:34:56.789'],
    [T, 2, 'week', '2024-05-29T12:34:56.789'],
    // The month-end clamp, as moment: the last day of a shorter month, never a day of the next one.
    ['2024-01-31T10:11:12.345', 1, 'month', '2024-02-29T10:11:12.345'],
    ['2023-01-31T00:00:00.000', 1, 'month', '2023-02-28T00:00:00.000'],
    ['2024-03-31T00:00:00.000', -1, 'month', '2024-02-29T00:00:00.000'],
    ['2024-05-31T00:00:00.000', 1, 'month', '2024-06-30T00:00:00.000'],
    ['2024-01-30T00:00:00.000', 1, 'month', '2024-02-29T00:00:00.000'],
    ['2024-01-15T00:00:00.000', 1, 'month', '2024-02-15T00:00:00.000'],
    ['2024-11-30T00:00:00.000', 3, 'month', '2025-02-28T00:00:00.000'],
    ['2024-01-31T00:00:00.000', -13, 'month', '2022-12-31T00:00:00.000'],
    ['2024-10-31T00:00:00.000', 1, 'quarter', '2025-01-31T00:00:00.000'],
    ['2024-05-31T00:00:00.000', -1, 'quarter', '2024-02-29T00:00:00.000'],
    ['2024-02-29T08:00:00.000', 1, 'year', '2025-02-28T08:00:00.000'],
    ['2024-02-29T08:00:00.000', -4, 'year', '2020-02-29T08:00:00.000'],
  ])('%s plus %i %s is %s', (at, n, unit, expected) => {
    expect(formatWall(add(wall(at), n, unit))).toBe(expected);
  });
});

describe('absolute dates', () => {
  it.each([
    ['2024-01-31', '2024-01-31T00:00:00.000', '2024-01-31T23:59:59.999'],
    ['2024-02-29', '2024-02-29T00:00:00.000', '2024-02-29T23:59:59.999'],
    ['2024-12-01', '2024-12-01T00:00:00.000', '2024-12-01T23:59:59.999'],
    ['2024-01-31T10:00:00.000', '2024-01-31T10:00:00.000', '2024-01-31T10:00:00.000'],
    ['2024-01-31T10:00', '2024-01-31T10:00:00.000', '2024-01-31T10:00:00.000'],
    ['2024-01-31 23:59:59', '2024-01-31T23:59:59.000', '2024-01-31T23:59:59.000'],
    ['2024-01-31T23:59:59.5', '2024-01-31T23:59:59.500', '2024-01-31T23:59:59.500'],
    ['2024-01-31T23:59:59.123456', '2024-01-31T23:59:59.123', '2024-01-31T23:59:59.123'],
    ['2024-01-31T00:00:00.001', '2024-01-31T00:00:00.001', '2024-01-31T00:00:00.001'],
    // 24:00 ends the day, as in moment and ISO 8601.
    ['2024-12-31T24:00:00', '2025-01-01T00:00:00.000', '2025-01-01T00:00:00.000'],
    ['2024-01-31T24:00', '2024-02-01T00:00:00.000', '2024-02-01T00:00:00.000'],
    // Padded: Cube accepts it (moment skips the blanks) but its whole-day test sees the blanks and
    // reads an instant, so the range ends at midnight rather than 23:59:59.999.
    [' 2024-01-01 ', '2024-01-01T00:00:00.000', '2024-01-01T00:00:00.000'],
    ['2024-01-01 ', '2024-01-01T00:00:00.000', '2024-01-01T00:00:00.000'],
    [' 2024-01-01T10:00:00.000 ', '2024-01-01T10:00:00.000', '2024-01-01T10:00:00.000'],
  ])('%j runs from %s to %s', (text, from, to) => {
    expect(formatWall(boundFrom(text))).toBe(from);
    expect(formatWall(boundTo(text))).toBe(to);
  });

  it('tells a whole day from an instant', () => {
    expect(parseAbsolute('2024-01-31')).toEqual({ wall: wall('2024-01-31T00:00:00.000'), wholeDay: true });
    expect(parseAbsolute('2024-01-31T00:00:00.000')).toEqual({ wall: wall('2024-01-31T00:00:00.000'), wholeDay: false });
    expect(parseAbsolute(' 2024-01-31')).toEqual({ wall: wall('2024-01-31T00:00:00.000'), wholeDay: false });
    expect(parseAbsolute('0050-02-28')).toEqual({ wall: wall('0050-02-28T00:00:00.000'), wholeDay: true });
    expect(parseAbsolute('0048-02-29T10:00:00.000')).toEqual({ wall: wall('0048-02-29T10:00:00.000'), wholeDay: false });
  });

  it.each([
    '2024-02-30',
    '2023-02-29',
    '2024-04-31',
    '2024-13-01',
    '2024-00-10',
    '2024-01-00',
    '2024-01-32',
    '2024-01-01T25:00:00',
    '2024-01-01T24:00:01',
    '2024-01-01T24:01:00',
    '2024-01-01T24:00:00.001',
    '2024-01-01T23:60:00',
    '2024-01-01T10:59:60',
    '2024-1-01',
    '2024-01-01T10',
    '2024-01-01x',
    'x2024-01-01',
    '',
  ])('refuses %j, a date that does not exist or is not written as one', (text) => {
    expect(parseAbsolute(text)).toBeUndefined();
    expect(() => boundFrom(text)).toThrow(new QueryError(`Can't parse date: '${text}'`));
    expect(() => boundTo(text)).toThrow(new QueryError(`Can't parse date: '${text}'`));
  });

  it.each(['2024-01-01T23:59:59.999', '2024-12-31T00:00:00', '2024-01-01T00:59:00', '2024-01-01T00:00:59'])(
    'accepts %s, the last of each field',
    (text) => {
      expect(formatWall(parseAbsolute(text)?.wall ?? NaN)).toBe(new Date(`${text}Z`).toISOString().slice(0, 23));
    },
  );

  // Cube reads a zone part as an instant: its filters show it on the query's clock (moment.tz), its
  // gateway shows dateRange bounds on the UTC clock (moment.utc), the default zone here.
  it.each([
    ['2024-01-01T10:00:00Z', 'UTC', '2024-01-01T10:00:00.000'],
    ['2024-01-01T10:00:00z', 'UTC', '2024-01-01T10:00:00.000'],
    ['2024-01-01T10:00:00.000+02:00', 'UTC', '2024-01-01T08:00:00.000'],
    ['2024-01-01T10:00:00.123-0530', 'UTC', '2024-01-01T15:30:00.123'],
    ['2024-01-01T01:00:00+02', 'UTC', '2023-12-31T23:00:00.000'],
    ['2024-01-01 10:00+00:00', 'UTC', '2024-01-01T10:00:00.000'],
    ['2024-01-01T05:00:00Z', 'America/New_York', '2024-01-01T00:00:00.000'],
    ['2024-07-01T05:00:00.000+01:00', 'America/New_York', '2024-07-01T00:00:00.000'],
    ['2024-03-31T01:00:00Z', 'Europe/Berlin', '2024-03-31T03:00:00.000'],
    ['2024-01-01T23:59:59.999+23:59', 'UTC', '2024-01-01T00:00:59.999'],
  ])('%s is the instant it names, on the clock of %s', (text, tz, expected) => {
    expect(formatWall(boundFrom(text, tz))).toBe(expected);
    // An instant is never a whole day: the end of a range is the instant itself.
    expect(formatWall(boundTo(text, tz))).toBe(expected);
  });

  it('reads a zoned bound on the UTC clock unless told otherwise, as Cube reads dateRange bounds', () => {
    expect(formatWall(boundFrom('2024-01-01T10:00:00+02:00'))).toBe('2024-01-01T08:00:00.000');
    expect(formatWall(boundTo('2024-01-01T10:00:00-02:00'))).toBe('2024-01-01T12:00:00.000');
    expect(parseAbsolute('2024-01-01T10:00:00+02:00')).toEqual({
      wall: wall('2024-01-01T10:00:00.000'),
      wholeDay: false,
      offsetMinutes: 120,
    });
    expect(parseAbsolute('2024-01-01T10:00:00-00:30')).toEqual({
      wall: wall('2024-01-01T10:00:00.000'),
      wholeDay: false,
      offsetMinutes: -30,
    });
    expect(parseAbsolute('2024-01-01T10:00:00Z')).toEqual({ wall: wall('2024-01-01T10:00:00.000'), wholeDay: false, offsetMinutes: 0 });
  });

  it.each([
    '2024-01-01Z',
    '2024-01-01+02:00',
    '2024-01-01T10:00:00+24:00',
    '2024-01-01T10:00:00+02:60',
    '2024-01-01T10:00:00+2',
    '2024-01-01T10:00:00+02:0',
    '2024-01-01T10:00:00 Z',
    '2024-01-01T10:00:00ZZ',
    '2024-02-30T10:00:00Z',
  ])('refuses %j, a zone part that is not one or a date that does not exist', (text) => {
    expect(parseAbsolute(text)).toBeUndefined();
    expect(() => boundFrom(text, 'UTC')).toThrow(new QueryError(`Can't parse date: '${text}'`));
  });
});
