import { describe, expect, it } from 'vitest';
import { append, chartWidget, move, remove, textWidget } from './draft';
import { emptyState, fromQuery, queryables, toQuery, type MetaCube } from './query-model';

describe('the query builder model', () => {
  it('turns the picked members, time grain and filters into a Cube query, and back', () => {
    const state = {
      ...emptyState('sales'),
      measures: ['sales.count'],
      dimensions: ['sales.country'],
      timeDimension: 'sales.created_at',
      granularity: 'week',
      filters: [
        { member: 'sales.country', operator: 'equals' as const, values: ' USA, France ,' },
        { member: 'sales.status', operator: 'set' as const, values: '' },
        // A filter still waiting for its values is left out rather than sent empty.
        { member: 'sales.segment', operator: 'notEquals' as const, values: '  ' },
      ],
    };
    const query = toQuery(state);
    expect(query).toEqual({
      measures: ['sales.count'],
      dimensions: ['sales.country'],
      timeDimensions: [{ dimension: 'sales.created_at', granularity: 'week' }],
      filters: [
        { member: 'sales.country', operator: 'equals', values: ['USA', 'France'] },
        { member: 'sales.status', operator: 'set' },
      ],
    });
    expect(fromQuery(query)).toEqual({ ...state, filters: [{ ...state.filters[0], values: 'USA, France' }, state.filters[1]] });
    expect(toQuery(emptyState('sales'))).toEqual({});
  });

  it('offers the views, or the cubes of a model without views', () => {
    const cube = (name: string, type: 'cube' | 'view'): MetaCube => ({ name, title: name, type, measures: [], dimensions: [] });
    expect(queryables([cube('orders', 'cube'), cube('sales', 'view')]).map((c) => c.name)).toEqual(['sales']);
    expect(queryables([cube('orders', 'cube')]).map((c) => c.name)).toEqual(['orders']);
  });
});

describe('placing widgets on the dashboard draft', () => {
  it('appends at the bottom, moves up and down, removes, and keeps the rows stacked', () => {
    let widgets = append([], chartWidget(1));
    widgets = append(widgets, textWidget('hello'));
    widgets = append(widgets, chartWidget(2));
    const [a, b, c] = widgets.map((w) => w.id);
    expect(widgets.map((w) => w.position.y)).toEqual([0, 4, 6]);
    widgets = move(widgets, c!, -1);
    expect(widgets.map((w) => w.id)).toEqual([a, c, b]);
    expect(widgets.map((w) => w.position.y)).toEqual([0, 4, 8]);
    expect(move(widgets, a!, -1)).toBe(widgets);
    widgets = remove(widgets, a!);
    expect(widgets.map((w) => [w.id, w.position.y])).toEqual([
      [c, 0],
      [b, 4],
    ]);
    expect(widgets[0]?.config).toEqual({ reportId: 2 });
  });
});
