import { Type } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { Connection, PageQuery } from '../../http/pagination.js';
import { MAX_EMAIL_LENGTH } from './service.js';

const RoleName = StringEnum(['admin', 'member'], {
  description: 'admin may change the account; member may read it.',
});
const Email = Type.String({
  format: 'email',
  maxLength: MAX_EMAIL_LENGTH,
  description: 'Unique in the account, compared case-insensitively.',
});
const DisplayName = Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()]);

export const User = Type.Object(
  {
    id: Type.Integer(),
    email: Type.Union([Type.String(), Type.Null()], {
      description: 'Null for a user provisioned by SCIM without an e-mail address; such a user cannot sign in with a password.',
    }),
    displayName: Type.Union([Type.String(), Type.Null()]),
    role: RoleName,
    active: Type.Boolean({ description: 'An inactive user cannot sign in, and their API keys and access tokens are refused.' }),
    groups: Type.Optional(
      Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }), {
        description: 'Groups the user belongs to (single-user reads only).',
      }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'User' },
);

export const CreateUserBody = Type.Object(
  {
    email: Email,
    displayName: Type.Optional(DisplayName),
    role: Type.Optional(StringEnum(['admin', 'member'], { default: 'member' })),
    active: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false, $id: 'CreateUserInput' },
);

export const UpdateUserBody = Type.Object(
  {
    email: Type.Optional(Email),
    displayName: Type.Optional(DisplayName),
    role: Type.Optional(RoleName),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateUserInput' },
);

export const UserList = Connection(User, 'UserList');
export const UserListQuery = Type.Composite([
  PageQuery,
  Type.Object({ email: Type.Optional(Type.String({ minLength: 1, description: 'Only the user with this email (case-insensitive).' })) }),
]);
export const UserParams = Type.Object({ id: { ...IntegerId, description: 'User id' } });

export const userSchemas = [User, CreateUserBody, UpdateUserBody, UserList];
