import {
  message,
  parseHostCommand,
  parsePageEvent,
  PROTOCOL_VERSION,
  type DashboardFilter,
  type PageEvent,
  type PageEvents,
  type PageEventType,
  type Theme,
} from './protocol.js';
import { originOf } from './url.js';

/**
 * The embedded page's half of the protocol. The page posts only to `window.parent`, and only to the
 * parent's origin, which it learns, in this order:
 * 1. `location.ancestorOrigins[0]` (Chromium, WebKit): set by the browser, nothing the host can forge;
 * 2. the origin of `document.referrer`: the document that loaded the frame, which is the host page
 *    when the element loaded it (its iframe has `referrerpolicy="origin"`, so the origin is sent even
 *    under a host's strict referrer policy);
 * 3. else the host's `hello` handshake: the `origin` the browser stamps on a message from
 *    `window.parent`. Until then events wait in a short queue. A hello also corrects a referrer
 *    that named another origin (the frame navigated itself, say): the stamp is the parent's own.
 * A wrong guess cannot leak: postMessage to the parent with another origin is dropped by the browser.
 * Commands are accepted only from `window.parent` and that origin, and only once validated.
 */
export interface CommandHandlers {
  setFilters?(filters: DashboardFilter[]): void;
  setTheme?(theme: Theme): void;
  refresh?(): void;
}

export interface ConnectOptions extends CommandHandlers {
  /** The element whose height is reported for resizing (default: the document element, whose height must be auto). */
  measure?: Element;
  /** Report height changes (default true). */
  resize?: boolean;
}

export interface HostConnection {
  /** False when the page is not in a frame: every method then does nothing. */
  readonly framed: boolean;
  /** The host's origin once known. */
  readonly hostOrigin: string | null;
  post<T extends PageEventType>(type: T, payload: PageEvents[T]): void;
  loaded(detail: PageEvents['loaded']): void;
  error(detail: PageEvents['error']): void;
  filterChanged(filters: DashboardFilter[]): void;
  drillDown(detail: PageEvents['drillDown']): void;
  /** Stops listening, observing and posting. */
  disconnect(): void;
}

const QUEUE_LIMIT = 100;

/** The parent's origin from what the browser says about it, or null when it says nothing usable. */
export function resolveHostOrigin(input: OriginHints): string | null {
  const ancestor = input.ancestorOrigins && input.ancestorOrigins.length > 0 ? input.ancestorOrigins[0] : undefined;
  // An opaque ("null") origin cannot be targeted; a sandboxed host falls back to the handshake.
  if (ancestor !== undefined) return ancestor === 'null' ? null : ancestor;
  return originOf(input.referrer);
}

/** What the browser says about the parent's origin (a parameter so a test can take away what Chromium always has). */
export interface OriginHints {
  ancestorOrigins?: ArrayLike<string> | null;
  referrer?: string;
}

export function connectHost(
  options: ConnectOptions = {},
  hints: OriginHints = { ancestorOrigins: location.ancestorOrigins, referrer: document.referrer },
): HostConnection {
  const parent = window.parent;
  const framed = parent !== window;
  let origin = framed ? resolveHostOrigin(hints) : null;
  let queue: PageEvent[] = [];
  let lastHeight = -1;
  let closed = !framed;

  const send = (event: PageEvent) => {
    if (closed) return;
    if (origin) parent.postMessage(event, origin);
    else if (queue.length < QUEUE_LIMIT) queue.push(event);
  };
  const post = <T extends PageEventType>(type: T, payload: PageEvents[T]) => {
    // The host drops a malformed event without a word, so the page says it where its developer looks.
    const event = parsePageEvent(message<PageEvents, T>(type, payload));
    if (event) send(event);
    else console.warn(`@plinth/embed: not sent, malformed ${type} event`, payload);
  };
  const ready = () => post('ready', { version: PROTOCOL_VERSION });

  const onMessage = (event: MessageEvent) => {
    if (closed || event.source !== parent) return;
    const command = parseHostCommand(event.data);
    if (!command) return;
    if (command.type === 'hello') {
      // The browser stamps the parent's real origin on its message: it settles any guess from the referrer.
      if (event.origin === 'null') return;
      const changed = event.origin !== origin;
      origin = event.origin;
      ready(); // Also when the host missed the first one.
      if (!changed) return;
      const waiting = queue;
      queue = [];
      waiting.forEach(send);
      measure(true); // A height posted to a wrong guess never arrived.
      return;
    }
    if (event.origin !== origin) return;
    if (command.type === 'setFilters') options.setFilters?.(command.payload.filters);
    else if (command.type === 'setTheme') options.setTheme?.(command.payload.theme);
    else if (command.type === 'refresh') options.refresh?.();
  };

  const target = options.measure ?? document.documentElement;
  const measure = (force = false) => {
    if (options.resize === false) return;
    const height = Math.ceil(target.getBoundingClientRect().height);
    if (height === lastHeight && !force) return;
    lastHeight = height;
    post('resize', { height });
  };

  let observer: ResizeObserver | undefined;
  if (framed) {
    window.addEventListener('message', onMessage);
    if (origin) ready();
    if (options.resize !== false && typeof ResizeObserver !== 'undefined') {
      observer = new ResizeObserver(() => measure());
      observer.observe(target);
    }
  }

  return {
    framed,
    get hostOrigin() {
      return origin;
    },
    post,
    loaded: (detail) => post('loaded', detail),
    error: (detail) => post('error', detail),
    filterChanged: (filters) => post('filterChanged', { filters }),
    drillDown: (detail) => post('drillDown', detail),
    disconnect() {
      closed = true;
      queue = [];
      observer?.disconnect();
      window.removeEventListener('message', onMessage);
    },
  };
}
