import { describe, expect, it } from 'vitest';
import { LIMITS, parseHostCommand, parsePageEvent } from './protocol.js';
import { resolveHostOrigin } from './page.js';
import { embedUrl, filterParams, originOf } from './url.js';
import { filtersOf } from './element.js';

const m = (type: string, payload?: unknown, plinth: unknown = 1) => ({ plinth, type, payload });
const filter = { member: 'orders.status', operator: 'equals' as const, values: ['completed'] };

describe('page events', () => {
  it.each([
    ['ready', { version: 1 }],
    ['loaded', { page: 'dashboard', dashboardId: 'abc', title: 'Sales' }],
    ['loaded', { page: 'chat' }],
    ['error', { code: 'session_expired', message: 'This link has expired' }],
    ['filterChanged', { filters: [filter] }],
    ['filterChanged', { filters: [] }],
    ['drillDown', { member: 'orders.status', value: 'completed', query: { measures: ['orders.count'] }, widgetId: 'w1' }],
    ['drillDown', { member: 'orders.count', value: 12, query: {} }],
    ['drillDown', { member: 'orders.status', value: null, query: {} }],
    ['resize', { height: 640 }],
    ['resize', { height: 0 }],
  ])('accepts %s %j', (type, payload) => {
    expect(parsePageEvent(m(type, payload))).toEqual(m(type, payload));
  });

  it.each([
    ['no marker', { type: 'resize', payload: { height: 10 } }],
    ['another version', m('resize', { height: 10 }, 2)],
    ['the marker as a string', m('resize', { height: 10 }, '1')],
    ['an unknown type', m('navigate', { url: 'https://evil.example' })],
    ['an inherited name as type', m('toString', {})],
    ['a string', 'resize'],
    ['null', null],
    ['an array', [m('resize', { height: 10 })]],
    ['a payload that is an array', m('resize', [10])],
    ['a height that is a string', m('resize', { height: '100' })],
    ['a negative height', m('resize', { height: -1 })],
    ['an infinite height', m('resize', { height: Infinity })],
    ['a height past the limit', m('resize', { height: LIMITS.height + 1 })],
    ['loaded of an unknown page', m('loaded', { page: 'admin' })],
    ['loaded with a numeric title', m('loaded', { page: 'dashboard', title: 5 })],
    ['error without a code', m('error', { message: 'x' })],
    ['error with an empty code', m('error', { code: '', message: 'x' })],
    ['filters that are not a list', m('filterChanged', { filters: { 'orders.status': 'x' } })],
    ['a filter with an unknown operator', m('filterChanged', { filters: [{ ...filter, operator: 'like' }] })],
    ['a filter with numeric values', m('filterChanged', { filters: [{ ...filter, values: [1] }] })],
    ['a filter without a member', m('filterChanged', { filters: [{ operator: 'equals', values: [] }] })],
    ['too many filters', m('filterChanged', { filters: Array.from({ length: LIMITS.filters + 1 }, () => filter) })],
    ['a string longer than the limit', m('error', { code: 'x', message: 'y'.repeat(LIMITS.string + 1) })],
    ['drillDown with an object value', m('drillDown', { member: 'a.b', value: { x: 1 }, query: {} })],
    ['drillDown without a query', m('drillDown', { member: 'a.b', value: 1 })],
    ['drillDown with NaN', m('drillDown', { member: 'a.b', value: NaN, query: {} })],
    ['a host command', m('refresh', {})],
  ])('ignores %s', (_name, data) => {
    expect(parsePageEvent(data)).toBeNull();
  });

  it('keeps only the fields the protocol names', () => {
    const parsed = parsePageEvent({ ...m('loaded', { page: 'dashboard', title: 'T', html: '<img>' }), extra: true });
    expect(parsed).toEqual(m('loaded', { page: 'dashboard', title: 'T' }));
    expect(parsePageEvent(m('filterChanged', { filters: [{ ...filter, targets: ['w'] }] }))).toEqual(
      m('filterChanged', { filters: [filter] }),
    );
  });

  it('reads a missing filter value list as empty', () => {
    expect(parsePageEvent(m('filterChanged', { filters: [{ member: 'a.b', operator: 'set' }] }))).toEqual(
      m('filterChanged', { filters: [{ member: 'a.b', operator: 'set', values: [] }] }),
    );
  });
});

describe('host commands', () => {
  it.each([
    ['hello', { version: 1 }],
    ['setFilters', { filters: [filter] }],
    ['setTheme', { theme: 'dark' }],
    ['setTheme', { theme: { mode: 'light', primaryColor: '#1a73e8', font: 'Inter' } }],
    [
      'setTheme',
      { theme: { chat: { inputColor: '#fff' }, analyticsChat: { backgroundColor: '#000', chatInput: { borderColor: 'red' } } } },
    ],
    ['refresh', {}],
  ])('accepts %s %j', (type, payload) => {
    expect(parseHostCommand(m(type, payload))).toEqual(m(type, payload));
  });

  it('takes a refresh without a payload', () => {
    expect(parseHostCommand({ plinth: 1, type: 'refresh' })).toEqual(m('refresh', {}));
  });

  it.each([
    ['a page event', m('resize', { height: 10 })],
    ['a theme name outside light and dark', m('setTheme', { theme: 'blue' })],
    ['a theme mode outside light and dark', m('setTheme', { theme: { mode: 'sepia' } })],
    ['a numeric colour', m('setTheme', { theme: { primaryColor: 255 } })],
    ['an empty colour', m('setTheme', { theme: { primaryColor: '' } })],
    ['a chat theme that is a string', m('setTheme', { theme: { chat: 'red' } })],
    ['a chat input that is a list', m('setTheme', { theme: { analyticsChat: { chatInput: ['red'] } } })],
    ['no theme', m('setTheme', {})],
    ['filters missing', m('setFilters', {})],
    ['a filter that is a string', m('setFilters', { filters: ['orders.status'] })],
    ['no marker', { type: 'refresh', payload: {} }],
    ['a payload that is a string', m('refresh', 'now')],
  ])('ignores %s', (_name, data) => {
    expect(parseHostCommand(data)).toBeNull();
  });

  it('drops theme properties it does not know', () => {
    expect(parseHostCommand(m('setTheme', { theme: { primaryColor: '#000', css: 'body{display:none}' } }))).toEqual(
      m('setTheme', { theme: { primaryColor: '#000' } }),
    );
  });
});

describe('the host origin a page posts to', () => {
  it.each([
    [
      'the first ancestor origin',
      { ancestorOrigins: ['https://host.example', 'https://top.example'], referrer: 'https://other.example/' },
      'https://host.example',
    ],
    ['the referrer without ancestor origins', { referrer: 'https://host.example/page?x=1' }, 'https://host.example'],
    ['the referrer when ancestor origins are empty', { ancestorOrigins: [], referrer: 'http://127.0.0.1:5000/' }, 'http://127.0.0.1:5000'],
    ['nothing for an opaque ancestor', { ancestorOrigins: ['null'], referrer: 'https://host.example/' }, null],
    ['nothing without a referrer', { referrer: '' }, null],
    ['nothing for a referrer that is not http', { referrer: 'file:///tmp/x.html' }, null],
  ])('%s', (_name, input, expected) => {
    expect(resolveHostOrigin(input)).toBe(expected);
  });
});

describe('the iframe URL', () => {
  const base = { baseUrl: 'https://plinth.example/analytics/', session: 's1' };

  it.each([
    [
      'a dashboard',
      { ...base, kind: 'dashboard' as const, publicId: 'p 1' },
      'https://plinth.example/analytics/embed/dashboard/p%201?session=s1',
    ],
    ['the chat', { ...base, kind: 'chat' as const }, 'https://plinth.example/analytics/embed/chat?sessionId=s1'],
    ['creator mode', { ...base, kind: 'app' as const, deploymentId: '7' }, 'https://plinth.example/analytics/embed/d/7/app?session=s1'],
    [
      'header flags, theme and locale',
      { ...base, kind: 'dashboard' as const, publicId: 'p', hideTitle: true, hideEdit: false, theme: 'dark', locale: 'fr-FR' },
      'https://plinth.example/analytics/embed/dashboard/p?session=s1&hideTitle=true&hideEdit=false&theme=dark&locale=fr-FR',
    ],
  ])('%s', (_name, options, expected) => {
    expect(embedUrl(options)).toEqual({ url: expected });
  });

  it.each([
    ['a relative base URL', { baseUrl: '/plinth', session: 's', kind: 'chat' as const }, /base-url/],
    ['a javascript: base URL', { baseUrl: 'javascript:alert(1)', session: 's', kind: 'chat' as const }, /base-url/],
    ['no session', { baseUrl: 'https://p.example', session: '', kind: 'chat' as const }, /session/],
    ['a dashboard without public id', { baseUrl: 'https://p.example', session: 's', kind: 'dashboard' as const }, /public-id/],
    ['creator mode without deployment', { baseUrl: 'https://p.example', session: 's', kind: 'app' as const }, /deployment-id/],
    [
      'a deployment id that is a path',
      { baseUrl: 'https://p.example', session: 's', kind: 'app' as const, deploymentId: '../x' },
      /deployment-id/,
    ],
  ])('refuses %s', (_name, options, message) => {
    const built = embedUrl(options);
    expect('error' in built && built.error).toMatch(message);
  });

  it('carries filter presets as f_ parameters with JSON values, as the page parses them', () => {
    const presets = { 'orders.status': 'completed', 'orders.city': { operator: 'notEquals', values: ['Paris'] }, 'orders.x': undefined };
    expect(filterParams(presets)).toEqual([
      ['f_orders.status', '"completed"'],
      ['f_orders.city', '{"operator":"notEquals","values":["Paris"]}'],
    ]);
    const built = embedUrl({ ...base, kind: 'dashboard', publicId: 'p', filters: presets });
    const url = new URL('url' in built ? built.url : '');
    expect(url.searchParams.get('f_orders.status')).toBe('"completed"');
    expect(filterParams([filter])).toEqual([['f_orders.status', '{"operator":"equals","values":["completed"]}']]);
  });

  it('turns presets into the filter list setFilters sends', () => {
    expect(filtersOf({ 'a.b': 'x', 'a.c': [1, 2], 'a.d': null, 'a.e': { operator: 'gt', values: 3 } })).toEqual([
      { member: 'a.b', operator: 'equals', values: ['x'] },
      { member: 'a.c', operator: 'equals', values: ['1', '2'] },
      { member: 'a.d', operator: 'equals', values: [] },
      { member: 'a.e', operator: 'gt', values: ['3'] },
    ]);
  });

  it.each([
    ['https://p.example:8443/x', 'https://p.example:8443'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
    ['ftp://p.example', null],
    ['not a url', null],
    [null, null],
  ])('the origin of %s is %s', (input, expected) => {
    expect(originOf(input)).toBe(expected);
  });
});
