import { describe, expect, it } from 'vitest';
import type { EmbedUser } from '../session/claims';
import { initialsOf, nameOf } from './avatar';

const external = (fields: Partial<EmbedUser>): EmbedUser => ({ type: 'external', email: null, ...fields });

describe('the avatar initials', () => {
  it.each([
    [
      'display name first',
      external({ externalId: 'u-1', email: 'ann@example.com', userProfile: { displayName: 'Ann Lee', picture: null } }),
      'AL',
    ],
    ['one-word display name', external({ userProfile: { displayName: 'Madonna', picture: null } }), 'MA'],
    ['e-mail when there is no display name', external({ externalId: 'u-1', email: 'grace.hopper@example.com' }), 'GH'],
    [
      'e-mail when the display name is blank',
      external({ email: 'zoe@example.com', userProfile: { displayName: '  ', picture: null } }),
      'ZO',
    ],
    ['external id when there is neither', external({ externalId: 'bob_smith' }), 'BS'],
    ['a one-part external id', external({ externalId: 'x7' }), 'X7'],
    ['an internal user by e-mail', { type: 'internal', id: 4, email: 'ops-team@example.com' } as EmbedUser, 'OT'],
  ])('%s', (_name, user, initials) => {
    expect(initialsOf(nameOf(user))).toBe(initials);
  });
});
