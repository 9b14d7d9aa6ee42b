import type { Services } from '../module.js';
import type { EmbedTokenPrincipal } from '../../http/principal.js';

type Theme = { [key: string]: unknown };

/**
 * Lays the session's overrides over the account's embed theme: a property the session names wins,
 * one it leaves out keeps the account's value (null when neither set it).
 */
export function overlay(base: Theme, overrides: Theme | null | undefined): Theme {
  if (!overrides) return base;
  const merged: Theme = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const under = merged[key];
    merged[key] =
      value !== null && typeof value === 'object'
        ? overlay(under !== null && typeof under === 'object' ? (under as Theme) : {}, value as Theme)
        : value;
  }
  return merged;
}

/** getEmbedContext: the token's user and settings, with the account's themes as of now. */
export async function embedContext(services: Services, principal: EmbedTokenPrincipal) {
  const { claims } = principal;
  const [appTheme, embedTheme] = await Promise.all([
    services.appTheme.get(principal.accountId),
    services.embedThemes.get(principal.accountId),
  ]);
  const user = claims.user;
  return {
    user:
      user.type === 'external'
        ? {
            type: user.type,
            externalId: user.externalId,
            email: user.email,
            displayName: user.userProfile.displayName,
            picture: user.userProfile.picture,
          }
        : { type: user.type, externalId: null, email: user.email, displayName: null, picture: null },
    creatorMode: claims.creatorMode,
    showDashboardChat: claims.settings.showDashboardChat,
    appTheme,
    embedTheme: overlay(embedTheme as unknown as Theme, claims.embedTheme as Theme | null),
  };
}
