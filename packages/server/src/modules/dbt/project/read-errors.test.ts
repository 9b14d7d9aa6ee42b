import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DbtProjectError, readDbtProject } from './index.js';
import { PROJECT_YML, removeTestProjects, writeTestProject } from './testing.js';

afterAll(removeTestProjects);

async function failure(promise: Promise<unknown>): Promise<DbtProjectError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DbtProjectError);
  return error as DbtProjectError;
}

describe('a project that cannot be read names the file', () => {
  it.each<[string, Record<string, string | object>, string, string | null, RegExp]>([
    ['no dbt_project.yml', { 'models/a.sql': 'select 1' }, '', 'dbt_project.yml', /^No dbt_project.yml in the repository root/],
    [
      'no dbt_project.yml in the folder',
      { 'dbt_project.yml': PROJECT_YML },
      'sub',
      'sub/dbt_project.yml',
      /^No dbt_project.yml in the folder "sub"/,
    ],
    [
      'dbt_project.yml not YAML',
      { 'dbt_project.yml': 'name: [shop\n' },
      '',
      'dbt_project.yml',
      /^dbt_project.yml is not valid YAML at line \d+: /,
    ],
    [
      'dbt_project.yml without a name',
      { 'dbt_project.yml': 'version: 2\n' },
      '',
      'dbt_project.yml',
      /^dbt_project.yml has no project name/,
    ],
    ['dbt_project.yml a list', { 'dbt_project.yml': '- a\n' }, '', 'dbt_project.yml', /no project name/],
    [
      'model-paths not a list',
      { 'dbt_project.yml': `${PROJECT_YML}model-paths: models\n` },
      '',
      'dbt_project.yml',
      /model-paths must be a list/,
    ],
    [
      'a properties file not YAML',
      { 'p/dbt_project.yml': PROJECT_YML, 'p/models/a.sql': 'select 1', 'p/models/a.yml': 'models:\n  - name: a\n   columns: x\n' },
      'p',
      'p/models/a.yml',
      /^p\/models\/a.yml is not valid YAML at line 3: /,
    ],
    [
      'a properties file whose aliases expand without end',
      {
        'dbt_project.yml': PROJECT_YML,
        'models/a.yml': `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
      },
      '',
      'models/a.yml',
      /^models\/a.yml cannot be read: /,
    ],
    [
      'the manifest not JSON',
      { 'dbt_project.yml': PROJECT_YML, 'target/manifest.json': '{"nodes": ' },
      '',
      'target/manifest.json',
      /^target\/manifest.json is not valid JSON: /,
    ],
    [
      'the manifest without nodes',
      { 'dbt_project.yml': PROJECT_YML, 'target/manifest.json': { metadata: {} } },
      '',
      'target/manifest.json',
      /^target\/manifest.json is not a dbt manifest/,
    ],
    [
      'two models of one name',
      { 'dbt_project.yml': PROJECT_YML, 'models/a/x.sql': 'select 1', 'models/b/x.sql': 'select 2' },
      '',
      'models/b/x.sql',
      /^Two models are named "x": models\/a\/x.sql and models\/b\/x.sql$/,
    ],
    [
      'properties of one model in two files',
      {
        'dbt_project.yml': PROJECT_YML,
        'models/x.sql': 'select 1',
        'models/a.yml': { models: [{ name: 'x' }] },
        'models/b.yml': { models: [{ name: 'x' }] },
      },
      '',
      'models/b.yml',
      /^Model "x" has properties in both models\/a.yml and models\/b.yml$/,
    ],
  ])('%s', async (_title, files, folder, file, message) => {
    const error = await failure(readDbtProject(await writeTestProject(files), folder));
    expect(error.message).toMatch(message);
    expect(error.file).toBe(file);
  });

  it('a checkout that does not exist', async () => {
    const error = await failure(readDbtProject('/nonexistent/plinth/checkout', ''));
    expect(error.message).toMatch(/cannot be read/);
  });
});

describe('paths out of the checkout are refused', () => {
  it.each([['..'], ['../other'], ['a/../../other'], ['/etc'], ['a/\0b']])('folder %j', async (folder) => {
    const dir = await writeTestProject({ 'dbt_project.yml': PROJECT_YML });
    const error = await failure(readDbtProject(dir, folder));
    expect(error.message).toMatch(/is outside the repository/);
  });

  it.each([['../../outside'], ['/tmp']])('model path %j', async (path) => {
    const dir = await writeTestProject({ 'p/dbt_project.yml': `${PROJECT_YML}model-paths: [models, ${JSON.stringify(path)}]\n` });
    const error = await failure(readDbtProject(dir, 'p'));
    expect(error.message).toMatch(/is outside the repository/);
  });

  it('a folder inside the checkout written with .. is fine', async () => {
    const dir = await writeTestProject({ 'p/dbt_project.yml': PROJECT_YML, 'p/models/a.sql': 'select 1' });
    expect((await readDbtProject(dir, 'q/../p')).models.map((m) => m.name)).toEqual(['a']);
  });

  it.each([
    ['the models folder', 'models', 'dir'],
    ['a model file', 'models/b.sql', 'secret.sql'],
    ['a properties file', 'models/b.yml', 'secret.yml'],
    ['dbt_project.yml', 'dbt_project.yml', 'dbt_project.yml'],
    ['the manifest', 'target/manifest.json', 'secret.yml'],
    ['the project folder', 'p', 'dir'],
  ])('a symlink to outside as %s', async (_title, link, target) => {
    const outside = await writeTestProject({ 'secret.sql': 'select 1', 'dbt_project.yml': PROJECT_YML, 'secret.yml': 'models: []' });
    const files: Record<string, string> = { 'dbt_project.yml': PROJECT_YML, 'models/a.sql': 'select 1', 'target/.keep': '' };
    for (const path of Object.keys(files)) if (path === link || path.startsWith(`${link}/`)) delete files[path];
    const dir = await writeTestProject(files);
    await symlink(target === 'dir' ? outside : join(outside, target), join(dir, link));
    const error = await failure(readDbtProject(dir, link === 'p' ? 'p' : ''));
    expect(error.message).toMatch(/is a link to outside the repository/);
  });

  it('a symlink inside the checkout is followed, and a loop ends', async () => {
    const dir = await writeTestProject({ 'dbt_project.yml': PROJECT_YML, 'shared/b.sql': 'select 1', 'models/a.sql': 'select 1' });
    await symlink(join(dir, 'shared'), join(dir, 'models', 'shared'));
    await symlink(join(dir, 'models'), join(dir, 'models', 'loop'));
    const models = (await readDbtProject(dir, '')).models;
    expect(models.map((m) => [m.name, m.path])).toEqual([
      ['a', 'models/a.sql'],
      ['b', 'models/shared/b.sql'],
    ]);
  });
});
