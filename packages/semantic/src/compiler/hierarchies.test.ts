import { describe, expect, it } from 'vitest';
import { meta } from '../meta.js';
import type { Caller } from '../model.js';
import { compile } from './compile.js';

const MODEL = `cubes:
  - name: users
    sql_table: users
    measures:
      - name: count
        type: count
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: country
        sql: country
        type: string
      - name: state
        sql: state
        type: string
      - name: city
        sql: city
        type: string
      - name: secret
        sql: secret
        type: string
    hierarchies:
      - name: location
        title: User location
        levels: [country, "{CUBE.state}", users.city]
    access_policy:
      - group: "*"
        member_level:
          excludes: [secret, state]
      - group: admin
views:
  - name: people
    cubes:
      - join_path: users
        includes: [count, country, city, location]
        prefix: true
    folders:
      - name: Numbers
        includes: [users_count]
      - name: Where
        includes:
          - users_country
          - name: Detail
            includes: [users_city]
`;

const EVERYONE: Caller = { groups: [], userAttributes: {}, securityContext: {} };
const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

describe('hierarchies and folders', () => {
  const result = compile({ 'model/m.yml': MODEL });

  it('compile, and a view takes the levels it exposes of an included cube hierarchy', () => {
    expect(result.errors).toEqual([]);
    expect(result.model.cubes.get('users')?.hierarchies).toEqual([
      { name: 'location', title: 'User location', levels: ['country', 'state', 'city'], public: true },
    ]);
    expect(result.model.views.get('people')?.hierarchies).toEqual([
      {
        name: 'users_location',
        title: 'User location',
        levels: ['users_country', 'users_state', 'users_city'],
        public: true,
        aliasMember: 'users.location',
      },
    ]);
    // Naming the hierarchy brought its level `state` into the view.
    expect([...(result.model.views.get('people')?.members.keys() ?? [])]).toEqual([
      'users_count',
      'users_country',
      'users_city',
      'users_state',
    ]);
  });

  it('leave out the levels a view excludes', () => {
    const excluded = compile({ 'model/m.yml': MODEL.replace('prefix: true', 'prefix: true\n        excludes: [state]') });
    expect(excluded.errors).toEqual([]);
    expect(excluded.model.views.get('people')?.hierarchies?.[0]?.levels).toEqual(['users_country', 'users_city']);
  });

  it('appear in meta as Cube shows them: full paths, flat folders and nested folders', () => {
    const cubes = meta(result.model, ADMIN).cubes;
    const users = cubes.find((c) => c.name === 'users');
    expect(users?.hierarchies).toEqual([
      { name: 'users.location', title: 'User location', levels: ['users.country', 'users.state', 'users.city'], public: true },
    ]);
    expect(users?.folders).toEqual([]);
    const people = cubes.find((c) => c.name === 'people');
    expect(people?.hierarchies).toEqual([
      {
        name: 'people.users_location',
        title: 'User location',
        levels: ['people.users_country', 'people.users_state', 'people.users_city'],
        public: true,
        aliasMember: 'users.location',
      },
    ]);
    expect(people?.folders).toEqual([
      { name: 'Numbers', members: ['people.users_count'] },
      { name: 'Where', members: ['people.users_country', 'people.users_city'] },
    ]);
    expect(people?.nestedFolders).toEqual([
      { name: 'Numbers', members: ['people.users_count'] },
      { name: 'Where', members: ['people.users_country', { name: 'Detail', members: ['people.users_city'] }] },
    ]);
  });

  it('name only members the caller may see', () => {
    const users = meta(result.model, EVERYONE).cubes.find((c) => c.name === 'users');
    expect(users?.hierarchies[0]?.levels).toEqual(['users.country', 'users.city']);
  });

  const ERRORS: Array<{ name: string; yaml: string; message: RegExp }> = [
    {
      name: 'a level that is not a member',
      yaml: MODEL.replace('levels: [country,', 'levels: [nowhere,'),
      message: /Hierarchy users\.location names level nowhere, which is not a dimension of users/,
    },
    {
      name: 'a level that is a measure',
      yaml: MODEL.replace('levels: [country,', 'levels: [count,'),
      message: /Only dimensions can be part of a hierarchy: remove count from hierarchy users\.location/,
    },
    {
      name: 'a level of another cube',
      yaml: MODEL.replace('levels: [country,', 'levels: [orders.country,'),
      message: /names level orders\.country, which is not a dimension of users/,
    },
    {
      name: 'an unknown key in a hierarchy',
      yaml: MODEL.replace('title: User location', 'label: User location'),
      message: /Hierarchy users\.location has unknown key `label`/,
    },
    {
      name: 'an unknown key in a folder',
      yaml: MODEL.replace('- name: Numbers', '- name: Numbers\n        icon: hash'),
      message: /Folder 'Numbers' of people has unknown key `icon`/,
    },
    {
      name: 'a quoted boolean for public',
      yaml: MODEL.replace('title: User location', 'title: User location\n        public: "false"'),
      message: /Hierarchy users\.location: public must be true or false, not "false"/,
    },
    { name: 'a hierarchy without levels', yaml: MODEL.replace(/levels: \[.*\]/, 'levels: []'), message: /needs `levels`/ },
    {
      name: 'a view folder naming a cube member instead of a view member',
      yaml: MODEL.replace('includes: [users_count]', 'includes: [count]'),
      message: /Member 'count' included in folder 'Numbers' of people not found/,
    },
    {
      name: 'a folder with a path',
      yaml: MODEL.replace('includes: [users_count]', 'includes: [people.users_count]'),
      message: /Paths aren't allowed in folders/,
    },
    {
      name: 'a nested folder naming a missing member',
      yaml: MODEL.replace('includes: [users_city]', 'includes: [users_secret]'),
      message: /Member 'users_secret' included in folder 'Detail' of people not found/,
    },
  ];
  it.each(ERRORS)('reject $name at compile time', ({ yaml, message }) => {
    const bad = compile({ 'model/m.yml': yaml });
    expect(bad.valid).toBe(false);
    const found = bad.errors.find((e) => message.test(e.message));
    expect(found, JSON.stringify(bad.errors)).toBeDefined();
    expect(found?.fileName).toBe('model/m.yml');
  });
});
