import { connectHost, type HostConnection } from '../page.js';
import type { PageEvents } from '../protocol.js';

/**
 * Stands in for Plinth's embed page (packages/web) in the browser tests: it connects to its host as
 * the real page does, and lets the test grow its content, emit events and read what commands arrived.
 */
export interface StandIn {
  connection: HostConnection;
  commands: unknown[];
  /** Non-protocol `{marker}` messages from any window, in arrival order. */
  markers: string[];
  referrer: string;
  setHeight(px: number): void;
  emit<T extends keyof PageEvents>(type: T, payload: PageEvents[T]): void;
  /** Posts anything to the parent, bypassing the bridge's checks, to the host's origin. */
  raw(data: unknown): void;
}

declare global {
  interface Window {
    standIn: StandIn;
  }
}

const content = document.getElementById('content') as HTMLElement;
const commands: unknown[] = [];
const markers: string[] = [];

window.addEventListener('message', (event: MessageEvent) => {
  const data: unknown = event.data;
  if (data && typeof data === 'object' && typeof (data as { marker?: unknown }).marker === 'string')
    markers.push((data as { marker: string }).marker);
});

// The dashboard `handshake` pretends to be in a browser that tells a frame nothing of its parent,
// `wrong-referrer` in one whose referrer names another origin than the parent's.
const path = location.pathname;
const hints = path.endsWith('/handshake') ? {} : path.endsWith('/wrong-referrer') ? { referrer: 'http://wrong.invalid/' } : undefined;
const connection = connectHost(
  {
    setFilters: (filters) => commands.push({ type: 'setFilters', filters }),
    setTheme: (theme) => commands.push({ type: 'setTheme', theme }),
    refresh: () => commands.push({ type: 'refresh' }),
  },
  hints,
);

window.standIn = {
  connection,
  commands,
  markers,
  referrer: document.referrer,
  setHeight: (px) => {
    content.style.height = `${px}px`;
  },
  emit: (type, payload) => connection.post(type, payload),
  raw: (data) => window.parent.postMessage(data, connection.hostOrigin ?? '/'),
};

connection.loaded({ page: 'dashboard', dashboardId: location.pathname.split('/').pop() ?? '', title: 'Stand-in dashboard' });
