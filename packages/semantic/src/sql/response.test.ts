import { expect, it } from 'vitest';
import { CHUNK_ROWS, cubesqlLines } from './response.js';

const rowsOf = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .slice(1)
    .flatMap((line) => (JSON.parse(line) as { data: unknown[][] }).data);

it('splits the rows into data lines of CHUNK_ROWS each, in column order', () => {
  const data = Array.from({ length: CHUNK_ROWS * 2 + 1 }, (_, i) => ({ 'o.n': String(i), 'o.s': i % 2 ? 'a' : null }));
  const columns = [
    { name: 's', columnType: 'Utf8', key: 'o.s' },
    { name: 'n', columnType: 'Int64', key: 'o.n' },
  ];
  const lines = cubesqlLines({ data, lastRefreshTime: '2026-01-01T00:00:00.000Z' }, columns).trimEnd().split('\n');
  expect(lines).toHaveLength(4);
  expect(JSON.parse(lines[0]!)).toEqual({
    schema: [
      { name: 's', column_type: 'Utf8' },
      { name: 'n', column_type: 'Int64' },
    ],
    lastRefreshTime: '2026-01-01T00:00:00.000Z',
  });
  expect(JSON.parse(lines[3]!)).toEqual({ data: [[null, String(CHUNK_ROWS * 2)]] });
  expect(rowsOf(lines.join('\n'))).toHaveLength(CHUNK_ROWS * 2 + 1);
});
