import { describe, expect, it } from 'vitest';
import { compareRows, describeDifference, expectedRows } from './compare.js';

describe('--expect comparison (issue 15: rows as a set, numbers by value)', () => {
  it('numeric strings equal numbers; order and repeats do not matter', () => {
    const actual = [
      { 'orders.status': 'completed', 'orders.count': '3' },
      { 'orders.status': 'shipped', 'orders.count': '12.50' },
      { 'orders.status': 'completed', 'orders.count': '3' },
    ];
    const expected = [
      { 'orders.count': 12.5, 'orders.status': 'shipped' },
      { 'orders.status': 'completed', 'orders.count': 3 },
    ];
    expect(compareRows(actual, expected)).toEqual({ matches: true, missing: [], unexpected: [] });
  });

  it('names the missing and the unexpected rows', () => {
    const comparison = compareRows([{ a: '1' }, { a: '2' }], [{ a: 1 }, { a: 3 }]);
    expect(comparison).toEqual({ matches: false, missing: [{ a: 3 }], unexpected: [{ a: '2' }] });
    expect(describeDifference(comparison)).toEqual([
      '1 missing (expected, not returned) row:',
      '  {"a":3}',
      '1 unexpected (returned, not expected) row:',
      '  {"a":"2"}',
    ]);
  });

  it('strings that are not numbers, nulls and extra keys compare exactly', () => {
    expect(compareRows([{ a: '' }], [{ a: 0 }]).matches).toBe(false);
    expect(compareRows([{ a: null }], [{ a: 'null' }]).matches).toBe(false);
    expect(compareRows([{ a: '1', b: 'x' }], [{ a: 1 }]).matches).toBe(false);
    expect(compareRows([{ a: '2024-01-01T00:00:00.000' }], [{ a: '2024-01-01T00:00:00.000' }]).matches).toBe(true);
  });

  it('--expect must be an array of row objects', () => {
    expect(expectedRows({ data: [] })).toMatch(/must be a JSON array of rows/);
    expect(expectedRows([{ a: 1 }, 2])).toBe('row 2 is not a JSON object');
    expect(expectedRows([])).toEqual([]);
  });
});
