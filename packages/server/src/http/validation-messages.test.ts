import { Type, type TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { StringEnum } from './common-schemas.js';
import { makeAjv } from './validation.js';
import { describeValidation, fieldName } from './validation-messages.js';

const strict = makeAjv(false);
const coercing = makeAjv('array');

function messageFor(schema: TSchema, value: unknown, context = 'body'): string {
  const validate = (context === 'body' ? strict : coercing).compile(schema);
  expect(validate(value)).toBe(false);
  return describeValidation(validate.errors!, context);
}

const Body = (properties: Record<string, TSchema>) => Type.Object(properties, { additionalProperties: false });

/** Newcomer item 6: validation messages read as sentences naming the field. */
describe('validation messages', () => {
  it.each<[string, TSchema, unknown, string, string?]>([
    ['an enum', Body({ role: StringEnum(['admin', 'member']) }), { role: 'owner' }, 'role must be one of admin, member'],
    [
      'a union of constants',
      Body({ role: Type.Union([Type.Literal('admin'), Type.Literal('member')]) }),
      { role: 'x' },
      'role must be one of admin, member',
    ],
    [
      'a short password',
      Body({ password: Type.String({ minLength: 12 }) }),
      { password: 'short' },
      'password must be at least 12 characters',
    ],
    ['an empty string', Body({ name: Type.String({ minLength: 1 }) }), { name: '' }, 'name must not be empty'],
    ['a long string', Body({ name: Type.String({ maxLength: 3 }) }), { name: 'abcd' }, 'name must be at most 3 characters'],
    ['a wrong type', Body({ name: Type.String() }), { name: 42 }, 'name must be a string'],
    ['an integer', Body({ id: Type.Integer() }), { id: 1.5 }, 'id must be an integer'],
    [
      'a nullable string',
      Body({ description: Type.Union([Type.String(), Type.Null()]) }),
      { description: 3 },
      'description must be a string or null',
    ],
    ['a missing field', Body({ name: Type.String() }), {}, 'body is missing the required property "name"'],
    ['an unknown field', Body({ name: Type.String() }), { name: 'x', nmae: 'y' }, 'body has an unknown property "nmae"'],
    ['a body that is not an object', Body({}), [], 'body must be an object'],
    [
      'a nested field',
      Body({ users: Type.Array(Body({ email: Type.String({ format: 'email' }) })) }),
      { users: [{ email: 'x' }] },
      'users[0].email must be an e-mail address',
    ],
    ['a nested missing field', Body({ a: Body({ b: Type.String() }) }), { a: {} }, 'a is missing the required property "b"'],
    ['a URL', Body({ authUrl: Type.String({ format: 'url' }) }), { authUrl: 'nope' }, 'authUrl must be a URL'],
    ['too few items', Body({ ids: Type.Array(Type.Integer(), { minItems: 1 }) }), { ids: [] }, 'ids must have at least 1 item'],
    ['too many items', Body({ ids: Type.Array(Type.Integer(), { maxItems: 2 }) }), { ids: [1, 2, 3] }, 'ids must have at most 2 items'],
    [
      'an empty patch',
      Type.Object({ a: Type.Optional(Type.String()) }, { minProperties: 1 }),
      {},
      'body must not be empty: send at least one of its properties',
    ],
    ['a minimum', Body({ n: Type.Integer({ minimum: 1 }) }), { n: 0 }, 'n must be at least 1'],
    [
      'a query maximum',
      Type.Object({ first: Type.Integer({ maximum: 1000 }) }),
      { first: '5000' },
      'query parameter first must be at most 1000',
      'querystring',
    ],
    ['a path parameter type', Type.Object({ id: Type.Integer() }), { id: 'abc' }, 'path parameter id must be an integer', 'params'],
    ['a property name with a slash', Body({ 'a/b': Type.String() }), { 'a/b': 1 }, 'a/b must be a string'],
  ])('%s', (_label, schema, value, expected, context) => {
    expect(messageFor(schema, value, context)).toBe(expected);
  });

  it('never says "must be equal to constant"', () => {
    const message = messageFor(Body({ role: Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')]) }), {
      role: 'x',
    });
    expect(message).not.toMatch(/constant/);
    expect(message).toBe('role must be one of admin, member, viewer');
  });

  it.each([
    ['body', '', 'body'],
    ['body', '/users/3/email', 'users[3].email'],
    ['querystring', '', 'the query parameters'],
    ['headers', '/if-match', 'header if-match'],
    ['entry', '', 'entry'],
    ['entry', '/userProfile/displayName', 'userProfile.displayName'],
  ])('names %s %s as %s', (context, path, expected) => {
    expect(fieldName(context, path)).toBe(expected);
  });
});
