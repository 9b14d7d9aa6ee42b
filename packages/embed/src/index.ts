/**
 * @plinth/embed for host pages: the `<plinth-dashboard>` element (registered on import) and the
 * protocol's types. The React wrapper is `@plinth/embed/react`; the embedded page's half is `@plinth/embed/page`.
 */
export { PlinthDashboardElement, ELEMENT_EVENTS, ELEMENT_NAME, defineElement, filtersOf, type PlinthEventMap } from './element.js';
export { embedUrl, filterParams, originOf, type EmbedUrlOptions, type FilterPresets } from './url.js';
export * from './protocol.js';
