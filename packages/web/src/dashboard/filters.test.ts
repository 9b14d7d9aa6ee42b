import { describe, expect, it } from 'vitest';
import { filteredQuery, presetsFrom } from './filters';

describe('dashboard filter presets (f_<view>.<dimension>)', () => {
  it('reads a bare value as equals, an object with its operator, and leaves out what is not a member or an operator', () => {
    const search = new URLSearchParams({
      'f_sales.status': '"completed"',
      'f_sales.country': '{"operator":"notEquals","values":["France","Spain"]}',
      'f_sales.segment': '{"values":["consumer"]}',
      'f_sales.city': 'Paris',
      'f_sales.bad': '{"operator":"drop table","values":["x"]}',
      f_nodot: '"x"',
      session: 'secret',
    });
    expect(presetsFrom(search)).toEqual({
      'sales.status': { member: 'sales.status', operator: 'equals', values: ['completed'] },
      'sales.country': { member: 'sales.country', operator: 'notEquals', values: ['France', 'Spain'] },
      'sales.segment': { member: 'sales.segment', operator: 'equals', values: ['consumer'] },
      'sales.city': { member: 'sales.city', operator: 'equals', values: ['Paris'] },
    });
  });

  it("narrows only the charts of the filter's view, or the widgets it targets, and applies a time grain", () => {
    const query = { measures: ['sales.count'], timeDimensions: [{ dimension: 'sales.created_at', granularity: 'month' }] };
    const onView = { member: 'sales.status', operator: 'equals', values: ['completed'] };
    expect(filteredQuery(query, 'w1', { 'sales.status': onView }).filters).toEqual([onView]);
    expect(filteredQuery(query, 'w1', { 'other.status': { ...onView, member: 'other.status' } })).toBe(query);
    expect(filteredQuery(query, 'w1', { 'sales.status': { ...onView, targets: ['w2'] } })).toBe(query);
    expect(filteredQuery(query, 'w1', {}, 'year').timeDimensions).toEqual([{ dimension: 'sales.created_at', granularity: 'year' }]);
  });
});
