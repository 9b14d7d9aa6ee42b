import { Type } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { Connection } from '../../http/pagination.js';

const AttributeTypeName = StringEnum(['string', 'number', 'string_array', 'number_array'], {
  description: 'Fixed when the attribute is created.',
});
const Text = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);
const DefaultValue = Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()], {
  description: 'Text that parses as the type: a number for `number`, a JSON array of that element type for the array types.',
});

export const UserAttribute = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'Referenced from data models as `{ userAttributes.<name> }`.' }),
    type: AttributeTypeName,
    displayName: Type.Union([Type.String(), Type.Null()]),
    defaultValue: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'UserAttribute' },
);

export const CreateUserAttributeBody = Type.Object(
  {
    name: Type.String({ pattern: '^[A-Za-z0-9_]{1,100}$', description: '1 to 100 letters, digits or underscores; unique in the account.' }),
    type: AttributeTypeName,
    displayName: Type.Optional(Text(200)),
    defaultValue: Type.Optional(DefaultValue),
    description: Type.Optional(Text(2000)),
  },
  { additionalProperties: false, $id: 'CreateUserAttributeInput' },
);

export const UpdateUserAttributeBody = Type.Object(
  {
    type: Type.Optional({
      ...AttributeTypeName,
      description: 'May only repeat the current type: changing it fails with `cannot change type`.',
    }),
    displayName: Type.Optional(Text(200)),
    defaultValue: Type.Optional(DefaultValue),
    description: Type.Optional(Text(2000)),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateUserAttributeInput' },
);

export const UserAttributeList = Connection(UserAttribute, 'UserAttributeList');
export const UserAttributeParams = Type.Object({ id: { ...IntegerId, description: 'User attribute id' } });

/** Section 2.6: a value is a string, a number, an array of either, or null (which clears it). */
export const AttributeValueSchema = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Array(Type.String()),
  Type.Array(Type.Number()),
  Type.Null(),
]);

export const UserAttributeValue = Type.Object(
  { name: Type.String(), value: AttributeValueSchema },
  { additionalProperties: false, $id: 'UserAttributeValue' },
);

export const SetUserAttributeValuesBody = Type.Object(
  {
    values: Type.Array(Type.Ref(UserAttributeValue), {
      maxItems: 1000,
      description: 'Names not listed keep their values; `null` clears one. Duplicate names are rejected. All or nothing.',
    }),
  },
  { additionalProperties: false, $id: 'SetUserAttributeValuesInput' },
);

export const UserAttributeValues = Type.Array(Type.Ref(UserAttributeValue), { $id: 'UserAttributeValues' });

export const userAttributeSchemas = [
  UserAttribute,
  CreateUserAttributeBody,
  UpdateUserAttributeBody,
  UserAttributeList,
  UserAttributeValue,
  SetUserAttributeValuesBody,
  UserAttributeValues,
];
