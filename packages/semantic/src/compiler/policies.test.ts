import { describe, expect, it } from 'vitest';
import type { Caller } from '../model.js';
import { evaluateCondition, policyApplies } from '../planner/policy.js';
import { compile } from './compile.js';
import { parseCondition } from './conditions.js';

const cube = (policy: string): Record<string, string> => ({
  'model/a.yml': `cubes:
  - name: orders
    sql_table: orders
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
    measures:
      - { name: count, type: count }
    segments:
      - { name: done, sql: "{CUBE}.status = 'completed'" }
    access_policy:
${policy}`,
});

describe('access_policy keys the compiler refuses, each named', () => {
  it.each([
    {
      name: 'an unknown policy key',
      policy: '      - group: "*"\n        rows: all\n',
      message: 'cube orders, access_policy[0]: unknown keyword `rows`',
    },
    {
      name: 'member_masking (not implemented)',
      policy: '      - group: "*"\n        member_masking:\n          includes: [status]\n',
      message: 'cube orders, access_policy[0]: member_masking is not supported by Plinth yet',
    },
    {
      name: 'group and groups together',
      policy: '      - group: a\n        groups: [b]\n',
      message: 'An access policy of orders has both `group` and `groups`; use one of them',
    },
    {
      name: 'no group',
      policy: '      - member_level:\n          includes: "*"\n',
      message: 'An access policy of orders needs `group` or `groups`',
    },
    {
      name: 'an unknown member_level key',
      policy: '      - group: "*"\n        member_level:\n          include: [status]\n',
      message: 'cube orders, access_policy[0].member_level: unknown keyword `include`',
    },
    {
      name: 'an unknown row_level key',
      policy: '      - group: "*"\n        row_level:\n          filter: []\n',
      message: 'cube orders, access_policy[0].row_level: unknown keyword `filter`',
    },
    {
      name: 'an unknown filter key',
      policy:
        '      - group: "*"\n        row_level:\n          filters:\n            - { member: status, operator: equals, value: [a] }\n',
      message: 'cube orders, access_policy[0].row_level.filters[0]: unknown keyword `value`',
    },
    {
      name: 'an unknown operator',
      policy: '      - group: "*"\n        row_level:\n          filters:\n            - { member: status, operator: in, values: [a] }\n',
      message: "A row_level filter of orders has unknown operator 'in'",
    },
    {
      name: 'a value reading something other than the caller',
      policy:
        '      - group: "*"\n        row_level:\n          filters:\n            - { member: status, operator: equals, values: ["{ env.HOME }"] }\n',
      message: 'A row_level filter value of orders reads {env.HOME}: only { securityContext.x } and { userAttributes.x } are supported',
    },
    {
      name: 'a condition that is not an `if`',
      policy: '      - group: "*"\n        conditions:\n          - unless: "{ securityContext.x }"\n',
      message: '`conditions` of an access policy of orders cannot be read: each condition must be {if: "{ securityContext.x }"}',
    },
    {
      name: 'a condition calling a function',
      policy: '      - group: "*"\n        conditions:\n          - if: "{ securityContext.x.startswith(\'a\') }"\n',
      message: 'function calls are not supported in conditions',
    },
    {
      name: 'a row_level filter on a measure (it has no value per row)',
      policy: '      - group: "*"\n        row_level:\n          filters:\n            - { member: count, operator: gt, values: [3] }\n',
      message: 'A row_level filter of orders names count, a measure: row_level filters name dimensions',
    },
    {
      name: 'a row_level filter on a segment',
      policy:
        '      - group: "*"\n        row_level:\n          filters:\n            - { member: done, operator: equals, values: [true] }\n',
      message: 'A row_level filter of orders names done, a segment: row_level filters name dimensions',
    },
    {
      name: 'allow_all with filters',
      policy:
        '      - group: "*"\n        row_level:\n          allow_all: true\n          filters:\n            - { member: status, operator: set }\n',
      message: 'An access policy of orders has both `allow_all: true` and `filters`',
    },
  ])('$name', ({ policy, message }) => {
    const result = compile(cube(policy));
    expect(result.valid).toBe(false);
    // Named once: the keyword table and the policy reader must not both report one key.
    expect(result.errors.filter((e) => e.message.includes(message))).toHaveLength(1);
  });

  it('accepts every supported key, in snake and camel case', () => {
    const result = compile(
      cube(`      - groups: [a, b]
        conditions:
          - if: "{ securityContext.level >= 2 }"
        memberLevel:
          includes: "*"
          excludes: [status]
        rowLevel:
          allowAll: false
          filters:
            - or:
                - { member: orders.status, operator: equals, values: ["{ userAttributes.status }"] }
                - and: [{ member: id, operator: gt, values: [10] }]
`),
    );
    expect(result.errors).toEqual([]);
    const [policy] = result.model.cubes.get('orders')?.accessPolicy ?? [];
    expect(policy?.excludes).toEqual(['status']);
    expect(policy?.conditions).toHaveLength(1);
  });
});

describe('policy conditions', () => {
  const caller = (
    securityContext: Record<string, unknown>,
    groups: string[] = [],
    userAttributes: Record<string, unknown> = {},
  ): Caller => ({
    groups,
    securityContext,
    userAttributes,
  });
  it.each([
    { condition: '{ securityContext.is_admin }', context: { is_admin: true }, holds: true },
    { condition: '{ securityContext.is_admin }', context: { is_admin: false }, holds: false },
    { condition: '{ securityContext.is_admin }', context: {}, holds: false },
    { condition: '{ securityContext.tenant }', context: { tenant: 'acme' }, holds: true },
    { condition: '{ securityContext.tenant }', context: { tenant: '' }, holds: false },
    { condition: '{ not securityContext.tenant }', context: {}, holds: true },
    { condition: "{ securityContext.region == 'EMEA' }", context: { region: 'EMEA' }, holds: true },
    { condition: "{ securityContext.region != 'EMEA' }", context: { region: 'EMEA' }, holds: false },
    { condition: '{ securityContext.level > 2 }', context: { level: 3 }, holds: true },
    { condition: '{ securityContext.level <= 2 }', context: { level: 3 }, holds: false },
    { condition: "{ securityContext.level < 'a' }", context: { level: 3 }, holds: false },
    { condition: "{ 'sales' in securityContext.teams }", context: { teams: ['sales', 'ops'] }, holds: true },
    { condition: "{ 'hr' not in securityContext.teams }", context: { teams: ['sales'] }, holds: true },
    { condition: "{ securityContext.region in ['EMEA', 'APAC'] }", context: { region: 'APAC' }, holds: true },
    { condition: '{ securityContext.a and (securityContext.b or securityContext.c) }', context: { a: 1, c: 1 }, holds: true },
    { condition: '{ securityContext.a and (securityContext.b or securityContext.c) }', context: { a: 1 }, holds: false },
    { condition: '{ securityContext.user.org.id == 7 }', context: { user: { org: { id: 7 } } }, holds: true },
    { condition: '{ userAttributes.plan == "pro" }', context: {}, holds: false },
    { condition: 'securityContext.flag == True', context: { flag: true }, holds: true },
    { condition: '{ securityContext.missing == None }', context: {}, holds: true },
  ])('$condition with $context → $holds', ({ condition, context, holds }) => {
    const parsed = parseCondition(condition);
    if (typeof parsed === 'string') throw new Error(parsed);
    expect(Boolean(evaluateCondition(parsed, caller(context)))).toBe(holds);
    expect(policyApplies({ groups: ['*'], conditions: [parsed], includes: '*', excludes: [] }, caller(context))).toBe(holds);
  });

  it('several conditions are ANDed, and the group must match too', () => {
    const conditions = ['{ securityContext.a }', '{ securityContext.b }'].map((c) => parseCondition(c));
    if (conditions.some((c) => typeof c === 'string')) throw new Error('unparsed');
    const policy = { groups: ['ops'], conditions: conditions as never, includes: '*' as const, excludes: [] };
    expect(policyApplies(policy, caller({ a: true, b: true }, ['ops']))).toBe(true);
    expect(policyApplies(policy, caller({ a: true }, ['ops']))).toBe(false);
    expect(policyApplies(policy, caller({ a: true, b: true }, ['sales']))).toBe(false);
  });

  it.each(['{ os.system("x") }', '{ securityContext.a + 1 }', "{ securityContext.a == 'x }", '{ securityContext. }', '{ __import__ }'])(
    'refuses %s',
    (condition) => {
      expect(typeof parseCondition(condition)).toBe('string');
    },
  );
});
