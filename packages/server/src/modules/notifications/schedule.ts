import { Cron } from 'croner';
import cronstrue from 'cronstrue';
import { badRequest } from '../../http/errors.js';

export const SCHEDULE_TYPES = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'CUSTOM'] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** The fields of a schedule as the API takes them; null and absent mean the same. */
export interface ScheduleFields {
  scheduleType: ScheduleType;
  minute?: number | null | undefined;
  hour?: number | null | undefined;
  dayOfWeek?: number | null | undefined;
  dayOfMonth?: number | null | undefined;
  customCron?: string | null | undefined;
  timezone?: string | null | undefined;
}

/** A checked schedule: the fields its type uses (the rest null) and the cron expression they make. */
export interface Schedule {
  scheduleType: ScheduleType;
  minute: number | null;
  hour: number | null;
  dayOfWeek: number | null;
  dayOfMonth: number | null;
  customCron: string | null;
  timezone: string;
  cronExpression: string;
}

type TimeField = 'minute' | 'hour' | 'dayOfWeek' | 'dayOfMonth';
const RANGES: Record<TimeField, [number, number, string]> = {
  minute: [0, 59, 'minute of the hour'],
  hour: [0, 23, 'hour of the day'],
  dayOfWeek: [0, 6, 'day of the week, 0 = Sunday'],
  dayOfMonth: [1, 31, 'day of the month'],
};
/** The time fields each type uses; the first ones listed are required, the rest default to 0. */
const USES: Record<ScheduleType, { required: TimeField[]; optional: TimeField[] }> = {
  HOURLY: { required: [], optional: ['minute'] },
  DAILY: { required: [], optional: ['hour', 'minute'] },
  WEEKLY: { required: ['dayOfWeek'], optional: ['hour', 'minute'] },
  MONTHLY: { required: ['dayOfMonth'], optional: ['hour', 'minute'] },
  CUSTOM: { required: [], optional: [] },
};
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Whether the runtime knows the IANA zone; croner and Intl agree on what they accept. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a schedule and builds its cron expression. A field the type does not use is refused
 * rather than dropped, so a WEEKLY schedule sent as DAILY is not silently sent every day.
 */
export function checkSchedule(input: ScheduleFields): Schedule {
  const type = input.scheduleType;
  const timezone = input.timezone ?? 'UTC';
  if (timezone.trim() === '' || !isTimeZone(timezone)) {
    throw badRequest(`timezone "${timezone}" is not an IANA time zone (e.g. "UTC", "America/New_York", "Europe/Berlin")`);
  }
  const uses = USES[type];
  const used = new Set<TimeField>([...uses.required, ...uses.optional]);
  for (const field of Object.keys(RANGES) as TimeField[]) {
    const value = input[field];
    if (value === null || value === undefined) continue;
    if (!used.has(field)) throw badRequest(`${field} is not used by a ${type} schedule; leave it out`);
    const [min, max, what] = RANGES[field];
    if (!Number.isInteger(value) || value < min || value > max) {
      throw badRequest(`${field} must be a whole number from ${min} to ${max} (${what}), not ${value}`);
    }
  }
  for (const field of uses.required) {
    if (input[field] === null || input[field] === undefined) throw badRequest(`a ${type} schedule needs ${field}`);
  }
  if (type !== 'CUSTOM' && input.customCron != null) {
    throw badRequest(`customCron is only used by a CUSTOM schedule; this one is ${type}`);
  }
  const pick = (field: TimeField) => (used.has(field) ? (input[field] ?? 0) : null);
  const schedule = {
    scheduleType: type,
    minute: pick('minute'),
    hour: pick('hour'),
    dayOfWeek: pick('dayOfWeek'),
    dayOfMonth: pick('dayOfMonth'),
    customCron: null as string | null,
    timezone,
  };
  if (type === 'CUSTOM') {
    const cron = (input.customCron ?? '').trim().replace(/\s+/g, ' ');
    if (cron === '') throw badRequest('a CUSTOM schedule needs customCron, a cron expression such as "30 9 * * 1-5"');
    checkCustomCron(cron, timezone);
    return { ...schedule, customCron: cron, cronExpression: cron };
  }
  const m = schedule.minute;
  const h = schedule.hour;
  const cronExpression = {
    HOURLY: `${m} * * * *`,
    DAILY: `${m} ${h} * * *`,
    WEEKLY: `${m} ${h} * * ${schedule.dayOfWeek}`,
    MONTHLY: `${m} ${h} ${schedule.dayOfMonth} * *`,
  }[type];
  return { ...schedule, cronExpression };
}

/** Five fields (minute to day of week): notifications are sent at most once a minute. */
function checkCustomCron(cron: string, timezone: string): void {
  if (cron.split(' ').length !== 5) {
    throw badRequest(`customCron "${cron}" must have 5 fields (minute hour day-of-month month day-of-week), e.g. "30 9 * * 1-5"`);
  }
  let next: Date | null;
  try {
    next = new Cron(cron, { timezone, paused: true, mode: '5-part' }).nextRun();
  } catch (error) {
    throw badRequest(`customCron "${cron}" is not a valid cron expression: ${(error as Error).message}`);
  }
  if (!next) throw badRequest(`customCron "${cron}" never fires`);
}

/** The first slot of the schedule strictly after `after`, in its time zone. */
export function nextRun(schedule: Pick<Schedule, 'cronExpression' | 'timezone'>, after: Date): Date | null {
  return new Cron(schedule.cronExpression, { timezone: schedule.timezone, paused: true, mode: '5-part' }).nextRun(after);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "Every Monday at 09:30 (Europe/Berlin)": what the schedule does, in words. */
export function describeSchedule(schedule: Schedule): string {
  const at = `${pad(schedule.hour ?? 0)}:${pad(schedule.minute ?? 0)}`;
  const zone = `(${schedule.timezone})`;
  switch (schedule.scheduleType) {
    case 'HOURLY':
      return schedule.minute === 0 ? `Every hour, on the hour ${zone}` : `Every hour at minute ${schedule.minute} ${zone}`;
    case 'DAILY':
      return `Every day at ${at} ${zone}`;
    case 'WEEKLY':
      return `Every ${DAYS[schedule.dayOfWeek!]} at ${at} ${zone}`;
    case 'MONTHLY':
      return `On day ${schedule.dayOfMonth} of every month at ${at}${schedule.dayOfMonth! > 28 ? ' (months without that day are skipped)' : ''} ${zone}`;
    case 'CUSTOM':
      return `${cronstrue.toString(schedule.cronExpression, { use24HourTimeFormat: true, verbose: false })} ${zone}`;
  }
}
