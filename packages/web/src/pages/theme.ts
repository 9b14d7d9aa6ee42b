import type { Palette } from '../charts/chart-options';

const LIGHT: Palette = { text: '#1d2433', muted: '#4a5468', colors: ['#3b5bdb', '#e8590c', '#2b8a3e', '#ae3ec9', '#c92a2a', '#1098ad'] };
const DARK: Palette = { text: '#e9ecf3', muted: '#b4bccc', colors: ['#91a7ff', '#ffa94d', '#69db7c', '#e599f7', '#ff8787', '#66d9e8'] };

type Theme = Record<string, unknown> | null | undefined;

/** A value the browser takes as a colour; the server checks the account's, the session's may be anything. */
const colour = (value: unknown) => (typeof value === 'string' && value.length <= 100 && CSS.supports('color', value) ? value : undefined);
const font = (value: unknown) => (typeof value === 'string' && /^[\w\s,'"-]{1,200}$/.test(value) ? value : undefined);
const part = (value: unknown): Theme => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined);

/** The sRGB channels of a CSS colour, as the browser reads it. */
function channels(value: string): number[] | null {
  const probe = document.createElement('span');
  probe.style.color = value;
  document.body.append(probe);
  const computed = getComputedStyle(probe).color;
  probe.remove();
  const match = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(computed);
  return match ? [match[1], match[2], match[3]].map(Number) : null;
}

const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
  const linear = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
};

/** Text on the primary colour (buttons, the initials avatar): white or black, whichever reads better on it. */
export function onPrimary(primary: string): string | undefined {
  const rgb = channels(primary);
  if (!rgb) return undefined;
  const l = luminance(rgb);
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#000000';
}

/** What the page takes of the account's app theme (light and dark palettes, typography) and its embed theme. */
export interface PageThemes {
  /** The account's app theme (getEmbedContext's appTheme). */
  app?: Theme;
  /** The dashboard's own theme (its config). */
  dashboard?: Theme;
  /** The account's embed theme with the session's overrides laid over it. */
  embed?: Theme;
}

/**
 * Styles the page: `theme=light|dark` (else the viewer's preference) picks the palette of the
 * account's app theme, then the dashboard's theme and the embed theme (the session's overrides
 * already in it) lay their colours and font over it, as CSS variables.
 */
export function applyTheme(mode: 'light' | 'dark' | undefined, themes: PageThemes = {}): Palette {
  const dark = mode ? mode === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  const root = document.documentElement;
  root.dataset.theme = dark ? 'dark' : 'light';
  const set = (name: string, value: string | undefined) => (value ? root.style.setProperty(name, value) : undefined);
  let primary: string | undefined;

  const scheme = part(themes.app?.[dark ? 'dark' : 'light']);
  if (scheme) {
    set('--page-bg', colour(scheme.backgroundColor));
    set('--text', colour(scheme.foregroundColor));
    primary = colour(scheme.accentColor);
  }
  set('--font', font(part(part(themes.app?.typography)?.body)?.fontRef));

  const board = themes.dashboard;
  if (board) {
    set('--page-bg', colour(board.backgroundColor));
    set('--font', font(board.fontFamily));
    primary = colour(board.primaryColor) ?? primary;
  }

  const embed = themes.embed;
  if (embed) {
    set('--font', font(embed.font));
    primary = colour(embed.primaryColor) ?? primary;
    set('--chat-bg', colour(part(embed.analyticsChat)?.backgroundColor));
    set('--chat-input', colour(part(embed.chat)?.inputColor));
  }
  set('--primary', primary);
  // An account's accent may be too light for white text: the text on it follows the colour.
  if (primary) set('--on-primary', onPrimary(primary));
  const base = dark ? DARK : LIGHT;
  const text = colour(scheme?.foregroundColor);
  return { ...base, ...(text ? { text } : {}), colors: primary ? [primary, ...base.colors] : base.colors };
}

/** The palette the page was styled with (by applyTheme): what a chart drawn later, as the chat's, uses. */
export function currentPalette(): Palette {
  const root = document.documentElement;
  const base = root.dataset.theme === 'dark' ? DARK : LIGHT;
  const primary = root.style.getPropertyValue('--primary').trim();
  return primary ? { ...base, colors: [primary, ...base.colors] } : base;
}
