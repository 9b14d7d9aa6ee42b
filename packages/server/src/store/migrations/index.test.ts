import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from './index.js';

/**
 * Migrations keep four-digit numbers, reserved per branch when two branches add one at once. These
 * checks make a collision or a forgotten registration fail before a store ever sees it: the
 * migrator applies migrations in name order and refuses a store that has applied one that sorts
 * after a new one.
 */
describe('migrations', () => {
  const names = Object.keys(migrations);
  const files = readdirSync(fileURLToPath(new URL('.', import.meta.url)))
    .filter((file) => /\.(ts|js)$/.test(file) && !/\.test\.|\.d\.ts$/.test(file) && !file.startsWith('index.'))
    .map((file) => file.replace(/\.(ts|js)$/, ''));

  it('every name is a four-digit number and words', () => {
    expect(names.filter((name) => !/^\d{4}_[a-z0-9_]+$/.test(name))).toEqual([]);
  });

  it('no two share a number', () => {
    const numbers = names.map((name) => name.slice(0, 4));
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
  });

  it('are registered in the order they are applied', () => {
    expect(names).toEqual([...names].sort());
  });

  it('every file is registered, and every registration is a file', () => {
    expect([...files].sort()).toEqual([...names].sort());
  });

  it('each name is registered with its own file', () => {
    const source = readFileSync(fileURLToPath(new URL('./index.ts', import.meta.url)), 'utf8');
    const fileOf = new Map([...source.matchAll(/import \* as (\w+) from '\.\/(\w+)\.js'/g)].map(([, binding, file]) => [binding, file]));
    const registered = [...source.matchAll(/'(\d{4}_\w+)': (\w+),/g)].map(([, name, binding]) => [name, fileOf.get(binding!)]);
    expect(registered.length).toBe(names.length);
    expect(registered.filter(([name, file]) => name !== file)).toEqual([]);
  });
});
