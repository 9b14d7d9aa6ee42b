import { describe, expect, it } from 'vitest';
import { filteredQuery, hostFilters, presetsFrom, withWidgetTargets } from './filters';
import type { Widget } from './model';

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
    expect(presetsFrom(search)).toEqual([
      { member: 'sales.status', operator: 'equals', values: ['completed'] },
      { member: 'sales.country', operator: 'notEquals', values: ['France', 'Spain'] },
      { member: 'sales.segment', operator: 'equals', values: ['consumer'] },
      { member: 'sales.city', operator: 'equals', values: ['Paris'] },
    ]);
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
