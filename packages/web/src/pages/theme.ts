import type { Palette } from '../charts/chart-options';

const LIGHT: Palette = { text: '#1d2433', muted: '#4a5468', colors: ['#3b5bdb', '#e8590c', '#2b8a3e', '#ae3ec9', '#c92a2a', '#1098ad'] };
const DARK: Palette = { text: '#e9ecf3', muted: '#b4bccc', colors: ['#91a7ff', '#ffa94d', '#69db7c', '#e599f7', '#ff8787', '#66d9e8'] };

const colour = (value: unknown) =>
  typeof value === 'string' && /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\([\d\s.,%]+\)|[a-z]+)$/i.test(value) ? value : undefined;

/**
 * Styles the page: `theme=light|dark` (else the viewer's preference), then the theme's colours
 * (the dashboard's, with the session's embed theme laid over it) as CSS variables.
 */
export function applyTheme(mode: 'light' | 'dark' | undefined, ...themes: (Record<string, unknown> | null | undefined)[]): Palette {
  const dark = mode ? mode === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  const root = document.documentElement;
  root.dataset.theme = dark ? 'dark' : 'light';
  const base = dark ? DARK : LIGHT;
  let primary: string | undefined;
  for (const theme of themes) {
    if (!theme) continue;
    const background = colour(theme.backgroundColor);
    if (background) root.style.setProperty('--page-bg', background);
    const font = typeof theme.fontFamily === 'string' && /^[\w\s,'"-]{1,200}$/.test(theme.fontFamily) ? theme.fontFamily : undefined;
    if (font) root.style.setProperty('--font', font);
    primary = colour(theme.primaryColor) ?? primary;
  }
  if (primary) root.style.setProperty('--primary', primary);
  return primary ? { ...base, colors: [primary, ...base.colors] } : base;
}

/** The palette the page was styled with (by applyTheme): what a chart drawn later, as the chat's, uses. */
export function currentPalette(): Palette {
  const root = document.documentElement;
  const base = root.dataset.theme === 'dark' ? DARK : LIGHT;
  const primary = root.style.getPropertyValue('--primary').trim();
  return primary ? { ...base, colors: [primary, ...base.colors] } : base;
}
