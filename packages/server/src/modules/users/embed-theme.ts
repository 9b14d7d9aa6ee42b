import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { checkColours, checkFontFamily } from '../app-theme/public.js';
import type { EmbedTheme } from '../embed/schemas.js';

/** The embed theme as the API carries it: the same component as the overrides an embed session takes. */
export type EmbedThemeInput = Static<typeof EmbedTheme>;

/** The account's embed theme with every property present; null means not set (the app theme's applies). */
export interface EmbedThemeView {
  primaryColor: string | null;
  font: string | null;
  chat: { inputColor: string | null } | null;
  analyticsChat: {
    backgroundColor: string | null;
    chatInput: { backgroundColor: string | null; borderColor: string | null } | null;
  } | null;
}

/**
 * The account's embed theme: the base that an embed session's `embedTheme` overrides are laid over
 * (embed/omitted.ts keeps only the set properties of those, so a session changes only what it
 * names). Setting it replaces it whole: an omitted or null property is not set; `{}` clears it.
 */
export class EmbedThemeService {
  constructor(private readonly db: Kysely<Database>) {}

  async get(accountId: number): Promise<EmbedThemeView> {
    const row = await this.db.selectFrom('embed_theme').select('theme').where('account_id', '=', accountId).executeTakeFirst();
    return toView(row?.theme ?? {});
  }

  async replace(accountId: number, userId: number, input: EmbedThemeInput): Promise<EmbedThemeView> {
    const theme = setOnly(input) ?? {};
    checkColours(theme);
    if (typeof theme.font === 'string') checkFontFamily('font', theme.font);
    const json = JSON.stringify(theme);
    await this.db
      .insertInto('embed_theme')
      .values({ account_id: accountId, theme: json, updated_by: userId })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ theme: json, updated_by: userId, updated_at: new Date() }))
      .execute();
    return toView(theme);
  }
}

/** Only the properties that carry a value; a part with nothing set goes too. */
function setOnly(value: object): Record<string, unknown> | undefined {
  const kept: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') kept[key] = v;
    else if (v !== null && typeof v === 'object') {
      const part = setOnly(v);
      if (part) kept[key] = part;
    }
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}

type Stored = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const part = (v: unknown): Stored | undefined => (v !== null && typeof v === 'object' ? (v as Stored) : undefined);

function toView(theme: Stored): EmbedThemeView {
  const chat = part(theme.chat);
  const analytics = part(theme.analyticsChat);
  const input = part(analytics?.chatInput);
  return {
    primaryColor: str(theme.primaryColor),
    font: str(theme.font),
    chat: chat ? { inputColor: str(chat.inputColor) } : null,
    analyticsChat: analytics
      ? {
          backgroundColor: str(analytics.backgroundColor),
          chatInput: input ? { backgroundColor: str(input.backgroundColor), borderColor: str(input.borderColor) } : null,
        }
      : null,
  };
}
