import { apiGet } from '../lib/api';
import type { EmbedClaims, EmbedUser } from './claims';
import type { EmbedSession } from './session';

/** The server's getEmbedContext: who the token is for, what it may show, and the account's themes. */
export interface EmbedContext {
  user: {
    type: 'external' | 'internal';
    externalId: string | null;
    email: string | null;
    displayName: string | null;
    picture: string | null;
  };
  creatorMode: boolean;
  showDashboardChat: boolean;
  appTheme: Record<string, unknown> | null;
  embedTheme: Record<string, unknown> | null;
}

/** What the token's claims say, for when the context cannot be read: no account theme then. */
function fromClaims(claims: EmbedClaims): EmbedContext {
  const user = claims.user;
  return {
    user: {
      type: user.type,
      externalId: user.externalId ?? null,
      email: user.email,
      displayName: user.userProfile?.displayName ?? null,
      picture: user.userProfile?.picture ?? null,
    },
    creatorMode: claims.creatorMode === true,
    showDashboardChat: claims.settings?.showDashboardChat !== false,
    appTheme: null,
    embedTheme: claims.embedTheme,
  };
}

/** The context of the session's token; a failure to read it falls back on the claims (the page still works). */
export function loadContext(session: EmbedSession, signal?: AbortSignal): Promise<EmbedContext> {
  return apiGet<EmbedContext>(session, '/api/v1/embed/context', signal).catch(() => fromClaims(session.claims));
}

/** The avatar's user, as the header's Avatar reads it. */
export function avatarUser(context: EmbedContext): EmbedUser {
  const { user } = context;
  return {
    type: user.type,
    ...(user.externalId !== null ? { externalId: user.externalId } : {}),
    email: user.email,
    userProfile: { displayName: user.displayName, picture: user.picture },
  };
}
