import type { DashboardFilter, PageKind } from './protocol.js';

/**
 * Filter presets as the embed page takes them (`?f_<view>.<dimension>=<JSON>`): by member, a value
 * (or list of values) for `equals`, or `{operator, values}`. A list of DashboardFilter is accepted too.
 */
export type FilterPresets = Record<string, unknown> | DashboardFilter[];

export interface EmbedUrlOptions {
  /** The Plinth server's base URL, e.g. https://analytics.example.com (a path prefix is kept). */
  baseUrl: string;
  /** The embed session id from POST /api/v1/embed/generate-session (single use). */
  session: string;
  /** `dashboard` (needs publicId), `chat`, or `app` (creator mode, needs deploymentId). */
  kind: PageKind;
  publicId?: string;
  deploymentId?: string;
  theme?: string;
  locale?: string;
  hideTitle?: boolean;
  hideBackButton?: boolean;
  hideEdit?: boolean;
  hideDuplicate?: boolean;
  filters?: FilterPresets;
}

/** The origin of a base URL, or null when it is not an absolute http(s) URL. */
export function originOf(baseUrl: string | null | undefined): string | null {
  if (!baseUrl) return null;
  try {
    const url = new URL(baseUrl);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The `f_` parameters of a set of presets: each value JSON-encoded, as the page parses it. */
export function filterParams(filters: FilterPresets | undefined): [string, string][] {
  if (!filters) return [];
  if (Array.isArray(filters)) {
    return filters.map((f) => [`f_${f.member}`, JSON.stringify({ operator: f.operator, values: f.values })]);
  }
  return Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .map(([member, value]) => [`f_${member}`, JSON.stringify(value)]);
}

/**
 * The address of the embedded page, or an error saying what is missing. The session travels in the
 * query string because the page's URLs are Cube Cloud's; the page exchanges it once and drops it.
 */
export function embedUrl(options: EmbedUrlOptions): { url: string } | { error: string } {
  if (!originOf(options.baseUrl)) return { error: 'base-url must be an absolute http:// or https:// URL' };
  if (!options.session) return { error: 'session is required: mint one on your server with POST /api/v1/embed/generate-session' };
  const base = options.baseUrl.replace(/\/+$/, '');
  let url: URL;
  if (options.kind === 'chat') {
    url = new URL(`${base}/embed/chat`);
    url.searchParams.set('sessionId', options.session);
  } else if (options.kind === 'app') {
    if (!options.deploymentId || !/^\d+$/.test(options.deploymentId))
      return { error: 'deployment-id (a number) is required in creator mode' };
    url = new URL(`${base}/embed/d/${options.deploymentId}/app`);
    url.searchParams.set('session', options.session);
  } else {
    if (!options.publicId) return { error: 'public-id is required for a dashboard' };
    url = new URL(`${base}/embed/dashboard/${encodeURIComponent(options.publicId)}`);
    url.searchParams.set('session', options.session);
  }
  const flags = {
    hideTitle: options.hideTitle,
    hideBackButton: options.hideBackButton,
    hideEdit: options.hideEdit,
    hideDuplicate: options.hideDuplicate,
  };
  for (const [name, value] of Object.entries(flags)) if (value !== undefined) url.searchParams.set(name, String(value));
  if (options.theme) url.searchParams.set('theme', options.theme);
  if (options.locale) url.searchParams.set('locale', options.locale);
  for (const [name, value] of filterParams(options.filters)) url.searchParams.append(name, value);
  return { url: url.href };
}
