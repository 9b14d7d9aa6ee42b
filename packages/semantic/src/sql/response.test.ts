import { expect, it } from 'vitest';
import { CHUNK_ROWS, cubesqlLines } from './response.js';

const rowsOf = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .slice(1)
    .flatMap((line) => (JSON.parse(line) as { data: unknown[][] }).data);

it('splits the rows into data lines of CHUNK_ROWS each, in column order', async () => {
  const rows = Array.from({ length: CHUNK_ROWS * 2 + 1 }, (_, i) => [i % 2 ? 'a' : null, String(i)]);
  const columns = [
    { name: 's', type: 'text' as const, typeOid: 25, columnType: 'Utf8' },
    { name: 'n', type: 'int8' as const, typeOid: 20, columnType: 'Int64' },
  ];
  const text = await cubesqlLines({ columns, rows, lastRefreshTime: '2026-01-01T00:00:00.000Z' });
  const lines = text.trimEnd().split('\n');
  expect(lines).toHaveLength(4);
  expect(JSON.parse(lines[0]!)).toEqual({
    schema: [
      { name: 's', column_type: 'Utf8' },
      { name: 'n', column_type: 'Int64' },
    ],
    lastRefreshTime: '2026-01-01T00:00:00.000Z',
  });
  expect(JSON.parse(lines[3]!)).toEqual({ data: [[null, String(CHUNK_ROWS * 2)]] });
  expect(rowsOf(text)).toHaveLength(CHUNK_ROWS * 2 + 1);
});
