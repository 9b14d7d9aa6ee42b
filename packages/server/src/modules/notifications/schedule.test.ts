import { describe, expect, it } from 'vitest';
import { checkSchedule, describeSchedule, nextRun, type ScheduleFields } from './schedule.js';

const at = (iso: string) => new Date(iso);

describe('notification schedules', () => {
  it.each<[string, ScheduleFields, string, string]>([
    ['hourly on the hour', { scheduleType: 'HOURLY' }, '0 * * * *', 'Every hour, on the hour (UTC)'],
    ['hourly at :15', { scheduleType: 'HOURLY', minute: 15 }, '15 * * * *', 'Every hour at minute 15 (UTC)'],
    [
      'daily',
      { scheduleType: 'DAILY', hour: 9, minute: 30, timezone: 'Europe/Berlin' },
      '30 9 * * *',
      'Every day at 09:30 (Europe/Berlin)',
    ],
    ['weekly', { scheduleType: 'WEEKLY', dayOfWeek: 1, hour: 8 }, '0 8 * * 1', 'Every Monday at 08:00 (UTC)'],
    ['monthly', { scheduleType: 'MONTHLY', dayOfMonth: 1, hour: 6, minute: 5 }, '5 6 1 * *', 'On day 1 of every month at 06:05 (UTC)'],
    [
      'monthly on the 31st',
      { scheduleType: 'MONTHLY', dayOfMonth: 31 },
      '0 0 31 * *',
      'On day 31 of every month at 00:00 (months without that day are skipped) (UTC)',
    ],
    [
      'custom',
      { scheduleType: 'CUSTOM', customCron: '30  9 * * 1-5', timezone: 'America/New_York' },
      '30 9 * * 1-5',
      'At 09:30, Monday through Friday (America/New_York)',
    ],
  ])('%s: cron and words', (_name, fields, cron, words) => {
    const schedule = checkSchedule(fields);
    expect(schedule.cronExpression).toBe(cron);
    expect(describeSchedule(schedule)).toBe(words);
  });

  it.each<[string, ScheduleFields, string]>([
    ['a field the type does not use', { scheduleType: 'DAILY', dayOfWeek: 2 }, 'dayOfWeek is not used by a DAILY schedule; leave it out'],
    ['WEEKLY without its day', { scheduleType: 'WEEKLY', hour: 3 }, 'a WEEKLY schedule needs dayOfWeek'],
    ['MONTHLY without its day', { scheduleType: 'MONTHLY' }, 'a MONTHLY schedule needs dayOfMonth'],
    [
      'minute out of range',
      { scheduleType: 'HOURLY', minute: 60 },
      'minute must be a whole number from 0 to 59 (minute of the hour), not 60',
    ],
    ['hour out of range', { scheduleType: 'DAILY', hour: 24 }, 'hour must be a whole number from 0 to 23 (hour of the day), not 24'],
    [
      'day of week out of range',
      { scheduleType: 'WEEKLY', dayOfWeek: 7 },
      'dayOfWeek must be a whole number from 0 to 6 (day of the week, 0 = Sunday), not 7',
    ],
    [
      'day of month 0',
      { scheduleType: 'MONTHLY', dayOfMonth: 0 },
      'dayOfMonth must be a whole number from 1 to 31 (day of the month), not 0',
    ],
    [
      'customCron on another type',
      { scheduleType: 'DAILY', customCron: '* * * * *' },
      'customCron is only used by a CUSTOM schedule; this one is DAILY',
    ],
    ['CUSTOM without cron', { scheduleType: 'CUSTOM' }, 'a CUSTOM schedule needs customCron, a cron expression such as "30 9 * * 1-5"'],
    [
      'CUSTOM with time fields',
      { scheduleType: 'CUSTOM', customCron: '0 * * * *', hour: 1 },
      'hour is not used by a CUSTOM schedule; leave it out',
    ],
    [
      'seconds field',
      { scheduleType: 'CUSTOM', customCron: '0 0 9 * * *' },
      'customCron "0 0 9 * * *" must have 5 fields (minute hour day-of-month month day-of-week), e.g. "30 9 * * 1-5"',
    ],
    ['bad cron', { scheduleType: 'CUSTOM', customCron: '61 * * * *' }, 'customCron "61 * * * *" is not a valid cron expression'],
    ['never fires', { scheduleType: 'CUSTOM', customCron: '0 0 31 2 *' }, 'customCron "0 0 31 2 *"'],
    ['unknown zone', { scheduleType: 'DAILY', timezone: 'Mars/Olympus' }, 'timezone "Mars/Olympus" is not an IANA time zone'],
  ])('refuses %s, saying why', (_name, fields, message) => {
    expect(() => checkSchedule(fields)).toThrow(message);
  });

  it.each<[string, ScheduleFields, string, string]>([
    ['hourly', { scheduleType: 'HOURLY', minute: 15 }, '2026-03-10T10:20:00Z', '2026-03-10T11:15:00.000Z'],
    [
      'daily in New York (EST)',
      { scheduleType: 'DAILY', hour: 9, timezone: 'America/New_York' },
      '2026-01-10T15:00:00Z',
      '2026-01-11T14:00:00.000Z',
    ],
    [
      'daily in New York (EDT)',
      { scheduleType: 'DAILY', hour: 9, timezone: 'America/New_York' },
      '2026-07-10T15:00:00Z',
      '2026-07-11T13:00:00.000Z',
    ],
    // 02:30 does not exist on the night clocks go forward: the slot is the first time after the gap.
    [
      'into a DST gap',
      { scheduleType: 'DAILY', hour: 2, minute: 30, timezone: 'Europe/Berlin' },
      '2026-03-28T12:00:00Z',
      '2026-03-29T01:00:00.000Z',
    ],
    // 02:30 happens twice the night clocks go back: the slot is the first of them only.
    [
      'a repeated hour',
      { scheduleType: 'DAILY', hour: 2, minute: 30, timezone: 'Europe/Berlin' },
      '2026-10-24T12:00:00Z',
      '2026-10-25T00:30:00.000Z',
    ],
    [
      'weekly on Sunday',
      { scheduleType: 'WEEKLY', dayOfWeek: 0, hour: 18, timezone: 'Asia/Tokyo' },
      '2026-03-10T00:00:00Z',
      '2026-03-15T09:00:00.000Z',
    ],
    ['monthly skips short months', { scheduleType: 'MONTHLY', dayOfMonth: 31 }, '2026-04-01T00:00:00Z', '2026-05-31T00:00:00.000Z'],
    ['custom weekdays', { scheduleType: 'CUSTOM', customCron: '0 9 * * 1-5' }, '2026-03-13T10:00:00Z', '2026-03-16T09:00:00.000Z'],
  ])('next run: %s', (_name, fields, after, next) => {
    expect(nextRun(checkSchedule(fields), at(after))?.toISOString()).toBe(next);
  });

  it('after a repeated hour, the next slot is the following day, not the second 02:30', () => {
    const schedule = checkSchedule({ scheduleType: 'DAILY', hour: 2, minute: 30, timezone: 'Europe/Berlin' });
    expect(nextRun(schedule, at('2026-10-25T00:30:00Z'))?.toISOString()).toBe('2026-10-26T01:30:00.000Z');
  });
});
