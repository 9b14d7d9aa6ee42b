import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';

/** Temporary project directories for tests, removed by `removeTestProjects` (afterAll). */
const created: string[] = [];

/** Writes files (path → text, or an object written as YAML/JSON by extension) into a fresh directory. */
export async function writeTestProject(files: Record<string, string | object>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'plinth-dbt-test-'));
  created.push(dir);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    const text = typeof content === 'string' ? content : path.endsWith('.json') ? JSON.stringify(content) : stringify(content);
    await writeFile(join(dir, path), text);
  }
  return dir;
}

export async function removeTestProjects(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export const PROJECT_YML = 'name: shop\nversion: "1.0.0"\nconfig-version: 2\n';
