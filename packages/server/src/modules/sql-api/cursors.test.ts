import { describe, expect, it } from 'vitest';
import { parseClose, parseDeclare, parseFetch } from './cursors.js';

const refusal = (run: () => unknown) => {
  try {
    run();
    return 'none';
  } catch (error) {
    return (error as { sqlState?: string }).sqlState;
  }
};

describe('cursor statements as PostgreSQL reads them', () => {
  it('DECLARE: name folding, options, HOLD, and the query', () => {
    expect(parseDeclare('DECLARE "Big" NO SCROLL CURSOR WITH HOLD FOR SELECT 1')).toEqual({
      name: 'Big',
      query: 'SELECT 1',
      hold: true,
      binary: false,
    });
    expect(parseDeclare('declare C binary insensitive cursor without hold for select id from orders;')).toEqual({
      name: 'c',
      query: 'select id from orders',
      hold: false,
      binary: true,
    });
    expect(refusal(() => parseDeclare('DECLARE c SCROLL CURSOR FOR SELECT 1'))).toBe('0A000');
    expect(refusal(() => parseDeclare('DECLARE c CURSOR SELECT 1'))).toBe('42601');
  });

  it('FETCH and MOVE: forward counts, ALL, NEXT; backward directions refused', () => {
    expect(parseFetch('FETCH c')).toEqual({ move: false, count: 1, name: 'c' });
    expect(parseFetch('FETCH NEXT FROM c')).toEqual({ move: false, count: 1, name: 'c' });
    expect(parseFetch('FETCH 50 IN "C"')).toEqual({ move: false, count: 50, name: 'C' });
    expect(parseFetch('fetch forward 2000 from "big"')).toEqual({ move: false, count: 2000, name: 'big' });
    expect(parseFetch('FETCH FORWARD ALL FROM c')).toEqual({ move: false, count: Infinity, name: 'c' });
    expect(parseFetch('MOVE ALL c')).toEqual({ move: true, count: Infinity, name: 'c' });
    for (const sql of ['FETCH BACKWARD 1 FROM c', 'FETCH PRIOR FROM c', 'FETCH -1 FROM c', 'FETCH ABSOLUTE 3 FROM c']) {
      expect(refusal(() => parseFetch(sql))).toBe('55000');
    }
    expect(refusal(() => parseFetch('FETCH 0 FROM c'))).toBe('0A000');
    expect(refusal(() => parseFetch('FETCH lots FROM c'))).toBe('42601');
  });

  it('CLOSE: a name, or ALL', () => {
    expect(parseClose('CLOSE "Big"')).toBe('Big');
    expect(parseClose('close all')).toBeNull();
    expect(refusal(() => parseClose('CLOSE'))).toBe('42601');
  });
});
