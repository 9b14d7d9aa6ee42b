import { describe, expect, it } from 'vitest';
import { filteredQuery, hostFilters, presetsFrom, withWidgetTargets } from './filters';
import type { Widget } from './model';

const read = (name: string, value: string) => presetsFrom(new URLSearchParams([[name, value]]));

describe('dashboard filter presets (f_<view>.<dimension>)', () => {
  it.each([
    ['a JSON string is equals', 'f_sales.status', '"completed"', { operator: 'equals', values: ['completed'] }],
    ['a bare word is the value', 'f_sales.city', 'Paris', { operator: 'equals', values: ['Paris'] }],
    ['a number is a value', 'f_sales.year', '2024', { operator: 'equals', values: ['2024'] }],
    ['a list is equals any of them', 'f_sales.city', '["Paris","Lyon"]', { operator: 'equals', values: ['Paris', 'Lyon'] }],
    [
      'an object with its operator',
      'f_sales.country',
      '{"operator":"notEquals","values":["France","Spain"]}',
      { operator: 'notEquals', values: ['France', 'Spain'] },
    ],
    ['an object without operator is equals', 'f_sales.segment', '{"values":["consumer"]}', { operator: 'equals', values: ['consumer'] }],
    ['set takes no values', 'f_sales.city', '{"operator":"set"}', { operator: 'set', values: [] }],
  ])('%s', (_name, parameter, value, filter) => {
    const member = parameter.slice(2);
    expect(read(parameter, value)).toEqual({ presets: [{ member, ...filter }], problems: [] });
  });

  it.each([
    ['no dot in the member', 'f_nodot', '"x"', /not a filter: name a member as f_<view>.<dimension>/],
    ['three parts', 'f_a.b.c', '"x"', /not a filter/],
    ['a character no member has', 'f_sales.st-atus', '"x"', /not a filter/],
    [
      'an unknown operator',
      'f_sales.status',
      '{"operator":"drop table","values":["x"]}',
      /unknown operator "drop table"; the filter is not applied/,
    ],
    ['an operator that is no string', 'f_sales.status', '{"operator":3}', /unknown operator 3/],
    ['broken JSON of an object', 'f_sales.status', '{"operator":"equals",', /is not valid JSON; the filter is not applied/],
    ['broken JSON of a list', 'f_sales.status', '["a",', /is not valid JSON/],
  ])('names the parameter when it cannot be used: %s', (_name, parameter, value, message) => {
    const { presets, problems } = read(parameter, value);
    expect(presets).toEqual([]);
    expect(problems).toEqual([{ parameter, message: expect.stringMatching(message) }]);
  });

  it('leaves parameters that are not f_ alone, and keeps the good presets beside a bad one', () => {
    const search = new URLSearchParams({ session: 'secret', theme: 'dark', 'f_sales.city': 'Paris', f_bad: '1' });
    const { presets, problems } = presetsFrom(search);
    expect(presets.map((p) => p.member)).toEqual(['sales.city']);
    expect(problems.map((p) => p.parameter)).toEqual(['f_bad']);
  });

  it("narrows only the charts of the filter's view, or the widgets it targets, and applies a time grain", () => {
    const query = { measures: ['sales.count'], timeDimensions: [{ dimension: 'sales.created_at', granularity: 'month' }] };
    const onView = { member: 'sales.status', operator: 'equals', values: ['completed'] };
    expect(filteredQuery(query, 'w1', { 'sales.status': onView }).filters).toEqual([onView]);
    expect(filteredQuery(query, 'w1', { 'other.status': { ...onView, member: 'other.status' } })).toBe(query);
    expect(filteredQuery(query, 'w1', { 'sales.status': { ...onView, targets: ['w2'] } })).toBe(query);
    expect(filteredQuery(query, 'w1', {}, 'year').timeDimensions).toEqual([{ dimension: 'sales.created_at', granularity: 'year' }]);
  });

  it("keeps the host's filters on view members with known operators (the last per member), with the targets of the member's filter widget", () => {
    const kept = hostFilters([
      { member: 'sales.status', operator: 'equals', values: ['new'] },
      { member: 'sales.status', operator: 'notEquals', values: ['completed'] },
      { member: 'nodot', operator: 'equals', values: ['x'] },
      { member: 'sales.city', operator: 'like', values: ['x'] },
      { member: 'sales.country', operator: 'beforeOrOnDate', values: [] },
    ]);
    expect(kept).toEqual([
      { member: 'sales.status', operator: 'notEquals', values: ['completed'] },
      { member: 'sales.country', operator: 'beforeOrOnDate', values: [] },
    ]);
    const widget = (id: string, config: Record<string, unknown>): Widget => ({
      id,
      type: 'FILTER',
      position: { x: 0, y: 0, w: 6, h: 1 },
      config,
    });
    const widgets = [widget('f1', { member: 'sales.status', targets: ['w2'] }), widget('f2', { member: 'sales.country' })];
    expect(withWidgetTargets(kept, widgets)).toEqual([
      { member: 'sales.status', operator: 'notEquals', values: ['completed'], targets: ['w2'] },
      { member: 'sales.country', operator: 'beforeOrOnDate', values: [] },
    ]);
  });
});
