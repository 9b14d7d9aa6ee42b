import { expect, it } from 'vitest';
import { asToken } from '../data-api/test-fixtures.js';
import { describeWithPsql, psql } from './test-fixtures.js';

describeWithPsql('SQL API with psql', (server, set) => {
  it('\\dt lists the visible cubes and views, \\d and \\d+ describe one with its columns and comments', async () => {
    const meta = await server().services.dataApi.meta(...asToken(set().principal));
    const listed = await psql(set().login, ['-A', '-t', '-c', '\\dt']);
    expect(listed.stderr).toBe('');
    const names = listed.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('|')[1]);
    expect(names).toEqual(meta.cubes.map((c) => c.name).sort());

    const view = meta.cubes.find((c) => c.type === 'view')!;
    const described = await psql(set().login, ['-c', `\\d ${view.name}`]);
    expect(described.stderr).toBe('');
    expect(described.stdout).toContain(`Table "public.${view.name}"`);
    const member = view.dimensions[0]!;
    expect(described.stdout).toContain(member.name.slice(view.name.length + 1));

    const plus = await psql(set().login, ['-c', `\\d+ ${view.name}`]);
    expect(plus.stderr).toBe('');
    expect(plus.stdout).toContain(member.description ?? member.title);
    expect((await psql(set().login, ['-c', '\\d'])).code).toBe(0);
    expect((await psql(set().login, ['-c', '\\dn'])).code).toBe(0);
    expect((await psql(set().login, ['-c', '\\l'])).code).toBe(0);
  });

  it('runs a query and COPY (query) TO STDOUT, in text and CSV', async () => {
    const query = 'SELECT status, MEASURE(count) AS n FROM orders GROUP BY 1 ORDER BY 1';
    const rows = await psql(set().login, ['-A', '-t', '-F', ',', '-c', query]);
    expect(rows.stderr).toBe('');
    const copied = await psql(set().login, ['-c', `COPY (${query}) TO STDOUT WITH (FORMAT csv)`]);
    expect(copied.stderr).toBe('');
    expect(copied.stdout).toBe(rows.stdout);
    const text = await psql(set().login, ['-c', `COPY (${query}) TO STDOUT`]);
    expect(text.stdout.replace(/\t/g, ',')).toBe(rows.stdout);
  });

  it('refuses a wrong password, and connects with a token as user token', async () => {
    const wrong = await psql({ ...set().login, password: 'nope' }, ['-c', 'SELECT 1']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/password authentication failed/);
    const token = await psql(set().tokenLogin(set().token), ['-A', '-t', '-c', 'SELECT MEASURE(count) FROM orders']);
    expect(token.stderr).toBe('');
    expect(Number(token.stdout.trim())).toBeGreaterThan(0);
  });
});
