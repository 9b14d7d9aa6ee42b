import {
  message,
  parseHostCommand,
  parsePageEvent,
  PROTOCOL_VERSION,
  type DashboardFilter,
  type HostCommand,
  type HostCommands,
  type HostCommandType,
  type PageEvents,
  type PageKind,
  type Theme,
} from './protocol.js';
import { embedUrl, originOf, type FilterPresets } from './url.js';

/** The DOM events the element dispatches (bubbling, composed), each with the page's payload as `detail`. */
export const ELEMENT_EVENTS = {
  ready: 'plinth-ready',
  loaded: 'plinth-loaded',
  error: 'plinth-error',
  filterChanged: 'plinth-filter-changed',
  drillDown: 'plinth-drill-down',
  resize: 'plinth-resize',
} as const satisfies Record<keyof PageEvents, string>;

export type PlinthEventMap = { [K in keyof PageEvents as (typeof ELEMENT_EVENTS)[K]]: CustomEvent<PageEvents[K]> };

/** Attributes that choose the page: a change loads it again (and needs a new session). */
const NAVIGATION = ['base-url', 'kind', 'public-id', 'deployment-id', 'session'] as const;
const OPTIONS = [
  'theme',
  'locale',
  'hide-title',
  'hide-back-button',
  'hide-edit',
  'hide-duplicate',
  'filters',
  'fixed-height',
  'frame-title',
];

/** Lets the module load where there is no DOM (a React app rendered on a server imports the wrapper). */
const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement;

const STYLE = `:host{display:block}iframe{display:block;width:100%;height:var(--plinth-initial-height,150px);border:0}`;

/** A list of filters from presets (`{member: value | {operator, values}}`) or a list. */
export function filtersOf(presets: FilterPresets): DashboardFilter[] {
  if (Array.isArray(presets)) return presets;
  return Object.entries(presets).map(([member, value]) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const { operator = 'equals', values = [] } = value as { operator?: unknown; values?: unknown };
      return { member, operator, values: Array.isArray(values) ? values.map(String) : [String(values)] } as DashboardFilter;
    }
    const values = Array.isArray(value) ? value.map(String) : value === null ? [] : [String(value)];
    return { member, operator: 'equals', values };
  });
}

/**
 * `<plinth-dashboard>`: an embedded Plinth dashboard (or chat, or creator app) in an iframe sized to
 * its content. It accepts messages only from its own iframe's window and only from the origin of
 * `base-url`, and posts its commands to that origin alone.
 */
export class PlinthDashboardElement extends Base {
  static readonly observedAttributes = [...NAVIGATION, ...OPTIONS];

  readonly #frame: HTMLIFrameElement;
  #origin: string | null = null;
  #navigation: string | null = null;
  #ready = false;
  #pending = new Map<HostCommandType, HostCommand>();
  #sent = { theme: null as string | null, filters: null as string | null };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = STYLE;
    this.#frame = document.createElement('iframe');
    this.#frame.setAttribute('part', 'frame');
    // The page learns its host's origin from the referrer where the browser has no ancestorOrigins.
    this.#frame.referrerPolicy = 'origin';
    this.#frame.allow = 'fullscreen; clipboard-write';
    this.#frame.addEventListener('load', () => this.#hello());
    root.append(style, this.#frame);
  }

  /** The iframe the page is shown in. */
  get iframe(): HTMLIFrameElement {
    return this.#frame;
  }

  connectedCallback() {
    window.addEventListener('message', this.#onMessage);
    this.#update();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.#onMessage);
    // A moved iframe loads its page again, which must say ready again before it gets commands.
    this.#ready = false;
  }

  attributeChangedCallback() {
    if (this.isConnected) this.#update();
  }

  /** Replaces the dashboard's filters (presets by member, or a list); an empty list or object clears them. */
  setFilters(filters: FilterPresets) {
    this.#send('setFilters', { filters: filtersOf(filters) });
  }

  /** `light`, `dark`, or overrides of the embed theme (`primaryColor`, `font`, …, and `mode`). */
  setTheme(theme: Theme) {
    this.#send('setTheme', { theme });
  }

  /** Runs the page's queries again without reloading it (a reload would need a new session). */
  refresh() {
    this.#send('refresh', {});
  }

  #send<T extends HostCommandType>(type: T, payload: HostCommands[T]) {
    const command = parseHostCommand(message<HostCommands, T>(type, payload));
    if (!command) throw new TypeError(`plinth-dashboard: invalid ${type} payload`);
    if (this.#ready && this.#origin) this.#post(command);
    else this.#pending.set(type, command);
  }

  #post(command: HostCommand) {
    // Never '*': only a document of the Plinth server's origin in this iframe may read a command.
    if (this.#origin) this.#frame.contentWindow?.postMessage(command, this.#origin);
  }

  #hello() {
    if (!this.#ready && this.#navigation) this.#post(message<HostCommands, 'hello'>('hello', { version: PROTOCOL_VERSION }));
  }

  #flag(name: string): boolean | undefined {
    const value = this.getAttribute(name);
    return value === null ? undefined : value !== 'false';
  }

  #kind(): PageKind {
    const kind = this.getAttribute('kind');
    if (kind === 'chat' || kind === 'app' || kind === 'dashboard') return kind;
    return this.hasAttribute('deployment-id') && !this.hasAttribute('public-id') ? 'app' : 'dashboard';
  }

  #filters(): FilterPresets | undefined | Error {
    const text = this.getAttribute('filters');
    if (!text) return undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') return parsed as FilterPresets;
    } catch {
      // Reported below with the attribute's name.
    }
    return new Error('filters must be a JSON object of presets by member, or a JSON list of filters');
  }

  #update() {
    const kind = this.#kind();
    const navigation = NAVIGATION.map((name) => (name === 'kind' ? kind : (this.getAttribute(name) ?? ''))).join('\n');
    const filters = this.#filters();
    const theme = this.getAttribute('theme') ?? undefined;
    this.#frame.title = this.getAttribute('frame-title') ?? (kind === 'chat' ? 'Analytics chat' : 'Plinth dashboard');
    // With fixed-height the host's CSS sizes the frame, not the page's resize events.
    if (this.hasAttribute('fixed-height')) this.#frame.style.removeProperty('height');
    if (filters instanceof Error) return this.#fail(filters.message);
    // A host usually fetches the session from its backend after the element is on the page: until then it waits.
    if (!this.hasAttribute('session')) return;
    if (navigation === this.#navigation) {
      // The session is single use: options that change on a loaded page are sent to it, not reloaded.
      const list = JSON.stringify(filters ? filtersOf(filters) : []);
      try {
        if ((theme === 'light' || theme === 'dark') && theme !== this.#sent.theme) this.setTheme(theme);
        if (list !== this.#sent.filters) this.#send('setFilters', { filters: JSON.parse(list) as DashboardFilter[] });
      } catch (error) {
        return this.#fail(error instanceof Error ? error.message : String(error));
      }
      this.#sent = { theme: theme ?? null, filters: list };
      return;
    }
    const built = embedUrl({
      baseUrl: this.getAttribute('base-url') ?? '',
      session: this.getAttribute('session') ?? '',
      kind,
      publicId: this.getAttribute('public-id') ?? undefined,
      deploymentId: this.getAttribute('deployment-id') ?? undefined,
      theme,
      locale: this.getAttribute('locale') ?? undefined,
      hideTitle: this.#flag('hide-title'),
      hideBackButton: this.#flag('hide-back-button'),
      hideEdit: this.#flag('hide-edit'),
      hideDuplicate: this.#flag('hide-duplicate'),
      filters,
    });
    if ('error' in built) return this.#fail(built.error);
    this.#navigation = navigation;
    this.#origin = originOf(this.getAttribute('base-url'));
    this.#ready = false;
    this.#pending.clear();
    this.#sent = { theme: theme ?? null, filters: JSON.stringify(filters ? filtersOf(filters) : []) };
    this.#frame.src = built.url;
  }

  #fail(reason: string) {
    this.#dispatch('error', { code: 'invalid_config', message: `plinth-dashboard: ${reason}` });
  }

  #dispatch<K extends keyof PageEvents>(type: K, detail: PageEvents[K]) {
    this.dispatchEvent(new CustomEvent(ELEMENT_EVENTS[type], { detail, bubbles: true, composed: true }));
  }

  readonly #onMessage = (event: MessageEvent) => {
    // Only this element's iframe, showing a document of the Plinth server's origin, speaks to it.
    if (!this.#origin || event.source === null || event.source !== this.#frame.contentWindow || event.origin !== this.#origin) return;
    const received = parsePageEvent(event.data);
    if (!received) return;
    // A page answers the load-time hello with ready again when the first one was still on its way.
    if (received.type === 'ready' && this.#ready) return;
    if (!this.#ready) {
      this.#ready = true;
      for (const command of this.#pending.values()) this.#post(command);
      this.#pending.clear();
    }
    if (received.type === 'resize' && !this.hasAttribute('fixed-height'))
      this.#frame.style.height = `${Math.ceil(received.payload.height)}px`;
    this.#dispatch(received.type, received.payload as PageEvents[typeof received.type]);
  };
}

export const ELEMENT_NAME = 'plinth-dashboard';

/** Registers `<plinth-dashboard>` (importing this module does it; calling again is harmless). */
export function defineElement(name = ELEMENT_NAME) {
  if (typeof customElements !== 'undefined' && !customElements.get(name)) customElements.define(name, PlinthDashboardElement);
}

defineElement();

declare global {
  interface HTMLElementTagNameMap {
    'plinth-dashboard': PlinthDashboardElement;
  }
}
