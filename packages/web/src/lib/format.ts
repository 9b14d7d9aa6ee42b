/** Numbers and dates for the viewer: the `locale` parameter, else the browser's own. */
export interface Formatter {
  number(value: unknown): string;
  date(value: unknown, granularity?: string): string;
  value(value: unknown, type?: string, granularity?: string): string;
}

export function formatter(locale: string | undefined): Formatter {
  const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const dates = new Map<string, Intl.DateTimeFormat>();
  const dateFormat = (granularity = 'day') => {
    let format = dates.get(granularity);
    if (!format) {
      const options: Intl.DateTimeFormatOptions =
        granularity === 'year'
          ? { year: 'numeric', timeZone: 'UTC' }
          : granularity === 'month' || granularity === 'quarter'
            ? { year: 'numeric', month: 'short', timeZone: 'UTC' }
            : granularity === 'hour' || granularity === 'minute' || granularity === 'second'
              ? { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }
              : { dateStyle: 'medium', timeZone: 'UTC' };
      format = new Intl.DateTimeFormat(locale, options);
      dates.set(granularity, format);
    }
    return format;
  };
  const self: Formatter = {
    number: (value) => {
      const n = typeof value === 'number' ? value : Number(value);
      return value === null || value === undefined || value === '' || Number.isNaN(n) ? '–' : numbers.format(n);
    },
    date: (value, granularity) => {
      if (typeof value !== 'string' && typeof value !== 'number') return '–';
      // The data API's local times carry no zone: read and shown as UTC, so no viewer shifts them.
      const text = typeof value === 'string' && !/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? `${value}Z` : value;
      const date = new Date(text);
      return Number.isNaN(date.getTime()) ? String(value) : dateFormat(granularity).format(date);
    },
    value: (value, type, granularity) => {
      if (value === null || value === undefined) return '–';
      if (type === 'number' || type === 'count' || type === 'sum' || type === 'avg') return self.number(value);
      if (type === 'time') return self.date(value, granularity);
      return String(value);
    },
  };
  return self;
}
