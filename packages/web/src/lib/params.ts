/**
 * The iframe URL's display parameters (Cube's names): header controls, theme and locale. Read
 * once; the session parameter is taken out of the URL by the session, not here.
 */
export interface PageParams {
  locale: string | undefined;
  theme: 'light' | 'dark' | undefined;
  hideTitle: boolean;
  hideBackButton: boolean;
  hideEdit: boolean;
  hideDuplicate: boolean;
}

function flag(search: URLSearchParams, ...names: string[]): boolean {
  for (const name of names) {
    const value = search.get(name);
    if (value !== null) return value === '' || value.toLowerCase() === 'true' || value === '1';
  }
  return false;
}

function validLocale(value: string | null): string | undefined {
  if (!value) return undefined;
  try {
    return Intl.getCanonicalLocales(value)[0];
  } catch {
    return undefined;
  }
}

export function readParams(search = new URLSearchParams(location.search)): PageParams {
  const theme = search.get('theme');
  return {
    locale: validLocale(search.get('locale')),
    theme: theme === 'dark' || theme === 'light' ? theme : undefined,
    hideTitle: flag(search, 'hideTitle', 'hide_title'),
    hideBackButton: flag(search, 'hideBackButton', 'hide_back_button'),
    hideEdit: flag(search, 'hideEdit', 'hide_edit'),
    hideDuplicate: flag(search, 'hideDuplicate', 'hide_duplicate'),
  };
}
