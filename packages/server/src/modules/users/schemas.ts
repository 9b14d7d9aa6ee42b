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
const NameField = (description: string) => Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], { description });
const FirstName = NameField("Given name (SCIM's name.givenName); null clears it.");
const LastName = NameField("Family name (SCIM's name.familyName); null clears it.");
const Title = NameField("Job title (SCIM's title); null clears it.");

export const UserAlias = Type.Object(
  {
    id: Type.Integer({ description: "Position of the alias among the user's aliases, from 1." }),
    userId: Type.Integer(),
    username: Type.String(),
    source: StringEnum(['ldap', 'saml', 'scim', 'manual'], { description: 'Where the alias comes from.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    $id: 'UserAlias',
    description:
      'Another name the user is known by: a SCIM userName that is not the e-mail, and each other address of SCIM `emails` (source `scim`). ' +
      'The externalId is not an alias; it has its own field.',
  },
);

export const User = Type.Object(
  {
    id: Type.Integer(),
    email: Type.Union([Type.String(), Type.Null()], {
      description: 'Null for a user provisioned by SCIM without an e-mail address; such a user cannot sign in with a password.',
    }),
    username: Type.String({ description: "SCIM's userName: what a SCIM client set, else the e-mail." }),
    displayName: Type.Union([Type.String(), Type.Null()]),
    firstName: Type.Union([Type.String(), Type.Null()]),
    lastName: Type.Union([Type.String(), Type.Null()]),
    title: Type.Union([Type.String(), Type.Null()]),
    externalId: Type.Union([Type.String(), Type.Null()], { description: "The identity provider's id of the user (SCIM externalId)." }),
    role: RoleName,
    isAdmin: Type.Boolean({ description: 'Whether the role is admin.' }),
    active: Type.Boolean({ description: 'An inactive user cannot sign in, and their API keys and access tokens are refused.' }),
    isDeactivated: Type.Boolean({ description: 'The opposite of active.' }),
    lastLogin: Type.Union([Timestamp, Type.Null()], { description: 'When the user last signed in, to the minute; null if never.' }),
    aliases: Type.Array(Type.Ref(UserAlias)),
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
    firstName: Type.Optional(FirstName),
    lastName: Type.Optional(LastName),
    title: Type.Optional(Title),
    role: Type.Optional(StringEnum(['admin', 'member'], { default: 'member' })),
    active: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false, $id: 'CreateUserInput' },
);

export const UpdateUserBody = Type.Object(
  {
    email: Type.Optional(Email),
    displayName: Type.Optional(DisplayName),
    firstName: Type.Optional(FirstName),
    lastName: Type.Optional(LastName),
    title: Type.Optional(Title),
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

export const userSchemas = [UserAlias, User, CreateUserBody, UpdateUserBody, UserList];
