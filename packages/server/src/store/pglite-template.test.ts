import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedFromTemplate, templateDir } from './pglite-template.js';

describe("the embedded store's initdb template", () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-pglite-seed-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A stand-in for the template: only its shape matters to the copy. */
  function template(root: string): string {
    const dir = join(root, 'template');
    mkdirSync(join(dir, 'base', '1'), { recursive: true });
    writeFileSync(join(dir, 'PG_VERSION'), '17\n');
    writeFileSync(join(dir, 'base', '1', '1259'), 'pg_class');
    return dir;
  }

  it('fills a data dir that is missing or empty, whole, and leaves nothing else beside it', () => {
    const root = scratch();
    const from = template(root);
    for (const dataDir of [join(root, 'store', 'pgdata'), join(root, 'empty')]) {
      if (dataDir.endsWith('empty')) mkdirSync(dataDir);
      expect(seedFromTemplate(dataDir, from)).toBe(true);
      expect(readFileSync(join(dataDir, 'base', '1', '1259'), 'utf8')).toBe('pg_class');
      expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    }
    expect(readdirSync(root).sort()).toEqual(['empty', 'store', 'template']);
    expect(readdirSync(join(root, 'store'))).toEqual(['pgdata']);
  });

  it('never touches a data dir that holds anything, and does nothing without a template', () => {
    const root = scratch();
    const dataDir = join(root, 'pgdata');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'PG_VERSION'), '16\n');
    expect(seedFromTemplate(dataDir, template(root))).toBe(false);
    expect(readdirSync(dataDir)).toEqual(['PG_VERSION']);
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('16\n');

    const elsewhere = join(root, 'other');
    expect(seedFromTemplate(elsewhere, join(root, 'no-template'))).toBe(false);
    expect(existsSync(elsewhere)).toBe(false);
  });

  it("is kept in the server's dist/, named by PGlite's version", () => {
    expect(templateDir()).toMatch(/packages\/server\/dist\/pglite-initdb-\d+\.\d+\.\d+$/);
  });
});
