import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { badRequest } from '../../http/errors.js';
import type { Database } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { checkColour, checkFontFamily, fontFamilyProblem } from './public.js';
import type { AppThemeResponse, UpdateAppThemeInput } from './schemas.js';

export type AppTheme = Static<typeof AppThemeResponse>;
export type AppThemeChanges = Static<typeof UpdateAppThemeInput>;

const SYSTEM_FONT = 'system-ui, sans-serif';

/** What an account that never set a theme gets; only the differences from it are stored. */
export const DEFAULT_APP_THEME: AppTheme = {
  applyThemeGlobally: false,
  light: { accentColor: '#7a77ff', backgroundColor: '#ffffff', foregroundColor: '#141446', contrast: 50, logoUrl: '' },
  dark: { accentColor: '#8f8cff', backgroundColor: '#14142b', foregroundColor: '#f4f4f8', contrast: 50, logoUrl: '' },
  typography: {
    fonts: [],
    body: { fontRef: SYSTEM_FONT, fontWeight: 400 },
    heading: { fontRef: SYSTEM_FONT, fontWeight: 600 },
  },
};

type Stored = Record<string, unknown>;

/**
 * The account's app theme: light and dark palettes, typography, and whether it applies to the
 * whole application. An update names only what it changes and is merged over what is stored;
 * the result is validated whole (a font a heading uses must still be there), then stored.
 */
export class AppThemeService {
  constructor(private readonly db: Kysely<Database>) {}

  async get(accountId: number): Promise<AppTheme> {
    const row = await this.db.selectFrom('app_theme').select('theme').where('account_id', '=', accountId).executeTakeFirst();
    return merge(DEFAULT_APP_THEME, row?.theme ?? {}) as AppTheme;
  }

  async update(accountId: number, userId: number, changes: AppThemeChanges): Promise<AppTheme> {
    return transaction(this.db, async (trx) => {
      // The row exists and is locked before it is read, so concurrent partial updates (the first
      // ones of an account too) run one after the other and all land.
      await trx
        .insertInto('app_theme')
        .values({ account_id: accountId, theme: '{}', updated_by: userId })
        .onConflict((oc) => oc.column('account_id').doNothing())
        .execute();
      const row = await trx.selectFrom('app_theme').select('theme').where('account_id', '=', accountId).forUpdate().executeTakeFirst();
      const stored = merge(row?.theme ?? {}, changes);
      const theme = merge(DEFAULT_APP_THEME, stored) as AppTheme;
      check(theme);
      const json = JSON.stringify(stored);
      await trx
        .updateTable('app_theme')
        .set({ theme: json, updated_by: userId, updated_at: new Date() })
        .where('account_id', '=', accountId)
        .execute();
      return theme;
    });
  }
}

/** Objects merge key by key; anything else (values, the fonts list) is replaced. */
function merge(base: object, over: object): Stored {
  const result: Stored = { ...(base as Stored) };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const current = result[key];
    const bothObjects = isObject(value) && isObject(current);
    result[key] = bothObjects ? merge(current, value) : structuredClone(value);
  }
  return result;
}

const isObject = (v: unknown): v is object => v !== null && typeof v === 'object' && !Array.isArray(v);

function check(theme: AppTheme): void {
  for (const scheme of ['light', 'dark'] as const) {
    const palette = theme[scheme];
    for (const key of ['accentColor', 'backgroundColor', 'foregroundColor'] as const) checkColour(`${scheme}.${key}`, palette[key]);
    if (palette.logoUrl !== '') checkUrl(`${scheme}.logoUrl`, palette.logoUrl, ['https:', 'http:']);
  }
  const { fonts, body, heading } = theme.typography;
  const ids = new Set<string>();
  fonts.forEach((font, i) => {
    const field = `typography.fonts[${i}]`;
    if (ids.has(font.id)) throw badRequest(`${field}.id: "${font.id}" is already the id of another font`);
    ids.add(font.id);
    checkUrl(`${field}.url`, font.url, ['https:']);
    if (font.family !== undefined && (font.family.includes(',') || fontFamilyProblem(font.family))) {
      throw badRequest(`${field}.family: "${font.family}" is not a font family name (letters, digits, spaces, hyphens, underscores)`);
    }
  });
  for (const [part, ref] of [
    ['body', body],
    ['heading', heading],
  ] as const) {
    if (!ids.has(ref.fontRef)) checkFontFamily(`typography.${part}.fontRef`, ref.fontRef);
  }
}

function checkUrl(field: string, value: string, protocols: string[]): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !protocols.includes(url.protocol) || /[\s"'()\\]/.test(value)) {
    throw badRequest(`${field}: "${value.slice(0, 200)}" is not an absolute ${protocols.map((p) => `${p}//`).join(' or ')} URL`);
  }
}
