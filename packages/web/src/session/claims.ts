/**
 * What the page reads of its embed token (the server's modules/embed/tokens.ts EmbedClaims). The
 * token is verified by the server on every call; the page only reads it to decide what to show.
 */
export interface EmbedUser {
  type: 'external' | 'internal';
  externalId?: string;
  id?: number;
  email: string | null;
  userProfile?: { displayName: string | null; picture: string | null };
}

export interface EmbedClaims {
  deploymentId: number;
  embedTenant: string;
  user: EmbedUser;
  settings: { showDashboardChat: boolean };
  creatorMode: boolean;
  publicDashboardId: string | null;
  embedTheme: Record<string, unknown> | null;
  exp?: number;
}

/** The payload of a JWT, or null when the text is not one. */
export function claimsOf(token: string): EmbedClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as EmbedClaims;
    return typeof claims.deploymentId === 'number' ? claims : null;
  } catch {
    return null;
  }
}
