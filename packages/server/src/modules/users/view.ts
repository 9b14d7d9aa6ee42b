import type { Static } from '@sinclair/typebox';
import type { Page } from '../../http/pagination.js';
import type { User } from './schemas.js';
import type { UserRecord } from './service.js';

export type UserView = Static<typeof User>;
type AliasView = UserView['aliases'][number];

/** The HTTP shape of a user: SCIM's uuid, version and raw attributes stay inside the server. */
export function toUserView(user: UserRecord, groups?: Array<{ id: number; name: string }>): UserView {
  return {
    id: user.id,
    email: user.email,
    username: user.userName,
    displayName: user.displayName,
    firstName: user.givenName,
    lastName: user.familyName,
    title: user.title,
    externalId: user.externalId,
    role: user.role,
    isAdmin: user.role === 'admin',
    active: user.active,
    isDeactivated: !user.active,
    lastLogin: user.lastLogin,
    aliases: aliasesOf(user),
    ...(groups ? { groups: groups.map((g) => ({ id: g.id, name: g.name })) } : {}),
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

/**
 * The other names a provisioning client gave the user: its userName when that is not the e-mail,
 * then each SCIM address that is not the e-mail, without repeats (compared case-insensitively).
 * They are derived, not stored, so they can never disagree with what SCIM holds; the id is the
 * position and the times are those of the user's last change.
 */
function aliasesOf(user: UserRecord): AliasView[] {
  const seen = new Set([(user.email ?? '').toLowerCase()]);
  const names = [...(user.email ? [user.userName] : []), ...user.emails.map((e) => e.value)].filter((name) => {
    const key = name.toLowerCase();
    if (!name || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return names.map((username, i) => ({
    id: i + 1,
    userId: user.id,
    username,
    source: 'scim' as const,
    createdAt: user.updatedAt,
    updatedAt: user.updatedAt,
  }));
}

export function toUserPage(page: Page<UserRecord>): Page<UserView> {
  return { items: page.items.map((u) => toUserView(u)), pageInfo: page.pageInfo };
}
