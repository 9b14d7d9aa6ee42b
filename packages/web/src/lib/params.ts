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
  /** What the page could not use, shown to the viewer as a notice naming the parameter. */
  problems: ParamProblem[];
}

/** A URL parameter the page did not apply, and why. */
export interface ParamProblem {
  parameter: string;
  message: string;
}

function flag(search: URLSearchParams, ...names: string[]): boolean {
  for (const name of names) {
    const value = search.get(name);
    if (value !== null) return value === '' || value.toLowerCase() === 'true' || value === '1';
  }
  return false;
}

function validLocale(value: string | null, problems: ParamProblem[]): string | undefined {
  if (!value) return undefined;
  try {
    return Intl.getCanonicalLocales(value)[0];
  } catch {
    problems.push({ parameter: 'locale', message: `"${value}" is not a language tag (e.g. de-DE); the browser's language is used` });
    return undefined;
  }
}

function themeOf(value: string | null, problems: ParamProblem[]): 'light' | 'dark' | undefined {
  if (value === null || value === '') return undefined;
  if (value === 'dark' || value === 'light') return value;
  problems.push({ parameter: 'theme', message: `"${value}" is not a theme; use light or dark` });
  return undefined;
}

export function readParams(search = new URLSearchParams(location.search)): PageParams {
  const problems: ParamProblem[] = [];
  return {
    locale: validLocale(search.get('locale'), problems),
    theme: themeOf(search.get('theme'), problems),
    hideTitle: flag(search, 'hideTitle', 'hide_title'),
    hideBackButton: flag(search, 'hideBackButton', 'hide_back_button'),
    hideEdit: flag(search, 'hideEdit', 'hide_edit'),
    hideDuplicate: flag(search, 'hideDuplicate', 'hide_duplicate'),
    problems,
  };
}
