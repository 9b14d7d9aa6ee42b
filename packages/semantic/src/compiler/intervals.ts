/** Cube's interval strings (`1 hour`, `30 seconds`, `2 days`) in seconds; cron strings are told apart. */

const UNIT_SECONDS: Record<string, number> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86400,
  week: 7 * 86400,
  // Cube counts a month as 30 days and a year as 365 for refresh intervals.
  month: 30 * 86400,
  year: 365 * 86400,
};

const INTERVAL = /^\s*(\d+)\s*(second|minute|hour|day|week|month|year)s?\s*$/i;
// Five or six space-separated cron fields made of digits, `*`, `/`, `,`, `-`, `?`, `L`, `W`, `#` and names.
const CRON = /^\s*(\S+\s+){4,5}\S+\s*$/;

export type ParsedEvery = { kind: 'interval'; seconds: number } | { kind: 'cron' } | { kind: 'invalid' };

export function parseInterval(text: string): number | undefined {
  const match = INTERVAL.exec(text);
  if (!match) return undefined;
  const seconds = Number(match[1]) * (UNIT_SECONDS[(match[2] ?? '').toLowerCase()] ?? 0);
  return seconds > 0 ? seconds : undefined;
}

export function parseEvery(text: string): ParsedEvery {
  const seconds = parseInterval(text);
  if (seconds !== undefined) return { kind: 'interval', seconds };
  return CRON.test(text) ? { kind: 'cron' } : { kind: 'invalid' };
}
