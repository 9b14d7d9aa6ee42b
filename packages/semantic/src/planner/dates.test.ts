import { describe, expect, it } from 'vitest';
import { QueryError } from '../errors.js';
import { formatWall, wallToUtc } from './dates.js';
import { relativeRange } from './relative-dates.js';

// Wednesday 15 May 2024, 12:00 UTC (14:00 in Berlin, 08:00 in New York).
const NOW = Date.parse('2024-05-15T12:00:00Z');

describe('relative date ranges (local wall times, as Cube computes them)', () => {
  it.each([
    ['today', 'UTC', '2024-05-15T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['yesterday', 'UTC', '2024-05-14T00:00:00.000', '2024-05-14T23:59:59.999'],
    ['tomorrow', 'UTC', '2024-05-16T00:00:00.000', '2024-05-16T23:59:59.999'],
    ['this month', 'UTC', '2024-05-01T00:00:00.000', '2024-05-31T23:59:59.999'],
    ['last month', 'UTC', '2024-04-01T00:00:00.000', '2024-04-30T23:59:59.999'],
    ['this week', 'UTC', '2024-05-13T00:00:00.000', '2024-05-19T23:59:59.999'],
    ['last quarter', 'UTC', '2024-01-01T00:00:00.000', '2024-03-31T23:59:59.999'],
    ['this year', 'UTC', '2024-01-01T00:00:00.000', '2024-12-31T23:59:59.999'],
    ['last 7 days', 'UTC', '2024-05-08T00:00:00.000', '2024-05-14T23:59:59.999'],
    ['last 3 months', 'UTC', '2024-02-01T00:00:00.000', '2024-04-30T23:59:59.999'],
    ['next 2 weeks', 'UTC', '2024-05-20T00:00:00.000', '2024-06-02T23:59:59.999'],
    ['from 7 days ago to now', 'UTC', '2024-05-08T00:00:00.000', '2024-05-15T23:59:59.999'],
    ['from 2 hours ago to now', 'UTC', '2024-05-15T10:00:00.000', '2024-05-15T12:59:59.999'],
    ['from 2024-01-01 to 2024-01-31', 'UTC', '2024-01-01T00:00:00.000', '2024-01-31T23:59:59.999'],
    ['today', 'Pacific/Kiritimati', '2024-05-16T00:00:00.000', '2024-05-16T23:59:59.999'],
    ['yesterday', 'America/New_York', '2024-05-14T00:00:00.000', '2024-05-14T23:59:59.999'],
  ])('%s in %s', (phrase, tz, from, to) => {
    expect(relativeRange(phrase, tz, NOW).map(formatWall)).toEqual([from, to]);
  });

  it('refuses what it cannot parse', () => {
    expect(() => relativeRange('whenever', 'UTC', NOW)).toThrow(QueryError);
  });

  it.each([
    ['2024-01-01T00:00:00.000', 'America/New_York', '2024-01-01T05:00:00.000'],
    ['2024-07-01T00:00:00.000', 'America/New_York', '2024-07-01T04:00:00.000'],
    ['2024-03-31T02:30:00.000', 'Europe/Berlin', '2024-03-31T01:30:00.000'], // in the spring-forward gap: moves forward, like moment,
    ['2024-01-01T00:00:00.000', 'Asia/Kolkata', '2023-12-31T18:30:00.000'],
  ])('local %s in %s is %s UTC', (wall, tz, utc) => {
    expect(formatWall(wallToUtc(Date.parse(`${wall}Z`), tz))).toBe(utc);
  });
});
