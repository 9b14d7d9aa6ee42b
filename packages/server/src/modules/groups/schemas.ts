import { Type } from '@sinclair/typebox';
import { IntegerId, Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';
import { MAX_GROUP_NAME } from './service.js';

const Name = Type.String({ minLength: 1, maxLength: MAX_GROUP_NAME, description: 'Unique in the account; case-sensitive.' });
const Description = Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]);

export const UserGroup = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    userCount: Type.Integer({ description: 'Number of members.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'UserGroup' },
);

export const CreateUserGroupBody = Type.Object(
  { name: Name, description: Type.Optional(Description) },
  { additionalProperties: false, $id: 'CreateUserGroupInput' },
);

export const UpdateUserGroupBody = Type.Object(
  { name: Type.Optional(Name), description: Type.Optional(Description) },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateUserGroupInput' },
);

export const AddGroupMembersBody = Type.Object(
  {
    userIds: Type.Array(IntegerId, {
      minItems: 1,
      maxItems: 1000,
      description: 'Internal user ids. Users already in the group stay; an unknown id fails the whole request.',
    }),
  },
  { additionalProperties: false, $id: 'AddGroupMembersInput' },
);

export const UserGroupList = Connection(UserGroup, 'UserGroupList');
export const GroupParams = Type.Object({ id: { ...IntegerId, description: 'Group id' } });
export const GroupMemberParams = Type.Object({
  id: { ...IntegerId, description: 'Group id' },
  userId: { ...IntegerId, description: 'User id' },
});

export const groupSchemas = [UserGroup, CreateUserGroupBody, UpdateUserGroupBody, AddGroupMembersBody, UserGroupList];
