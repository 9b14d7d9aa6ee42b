import type { Static } from '@sinclair/typebox';
import type { Page } from '../../http/pagination.js';
import type { User } from './schemas.js';
import type { UserRecord } from './service.js';

export type UserView = Static<typeof User>;

/** The HTTP shape of a user: SCIM's identifiers and names stay inside the server. */
export function toUserView(user: UserRecord, groups?: Array<{ id: number; name: string }>): UserView {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    active: user.active,
    ...(groups ? { groups: groups.map((g) => ({ id: g.id, name: g.name })) } : {}),
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

export function toUserPage(page: Page<UserRecord>): Page<UserView> {
  return { items: page.items.map((u) => toUserView(u)), pageInfo: page.pageInfo };
}
