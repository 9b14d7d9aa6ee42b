import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth workbooks and embed enable-dashboard', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = (apiKey = ctx().admin.apiKey) => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: apiKey });
  const deployment = async () => {
    const created = await plinth(['deployments', 'create', '--name', 'wb', '--json'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    return String(JSON.parse(created.stdout).id);
  };

  it('create, list, get, update, duplicate and delete', async () => {
    const d = await deployment();
    const fields = JSON.stringify({ margin: { sql: 'revenue - cost', type: 'number' } });
    const created = await plinth(['workbooks', 'create', d, '--name', 'Sales', '--calculated-fields', fields, '--json'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    const workbook = JSON.parse(created.stdout);
    expect(workbook).toMatchObject({ name: 'Sales', calculatedFields: { margin: { type: 'number' } } });
    const id = String(workbook.id);

    const listed = await plinth(['workbooks', 'list', d], { env: env() });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID +NAME +FOLDER +OWNER +DASHBOARD +UPDATED$/);
    expect(listed.stdout).toMatch(new RegExp(`^${id} +Sales `, 'm'));
    const got = await plinth(['workbooks', 'get', d, id, '--json'], { env: env() });
    expect(JSON.parse(got.stdout).id).toBe(workbook.id);

    const updated = await plinth(['workbooks', 'update', d, id, '--name', 'Revenue', '-d', '{"meta":{"team":"ops"}}', '--json'], {
      env: env(),
    });
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ name: 'Revenue', meta: { team: 'ops' } });
    const copy = await plinth(['workbooks', 'duplicate', d, id], { env: env(), stderrIsTTY: true });
    expect(copy.code, copy.stderr).toBe(0);
    expect(copy.stderr + copy.stdout).toMatch(/Revenue \(copy\)/);

    const removed = await plinth(['workbooks', 'delete', d, id], { env: env(), stderrIsTTY: true });
    expect(removed.code, removed.stderr).toBe(0);
    const gone = await plinth(['workbooks', 'get', d, id], { env: env() });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/Workbook \d+ not found/);
  });

  it('dashboard from a file, publish, enable-dashboard, the embedded dashboard, disable-dashboard', async () => {
    const d = await deployment();
    const id = String(JSON.parse((await plinth(['workbooks', 'create', d, '--name', 'Board', '--json'], { env: env() })).stdout).id);
    const dir = await mkdtemp(join(tmpdir(), 'plinth-board-'));
    const file = join(dir, 'board.json');
    await writeFile(file, JSON.stringify({ title: 'Board', widgets: [{ id: 't', type: 'TEXT', position: { x: 0, y: 0, w: 4, h: 2 } }] }));
    const saved = await plinth(['workbooks', 'dashboard', d, id, '--file', file], { env: env(), stderrIsTTY: true });
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toMatch(/Saved the draft of workbook \d+: 1 widget/);

    const first = await plinth(['workbooks', 'publish', d, id], { env: env(), stderrIsTTY: true });
    expect(first.code, first.stderr).toBe(0);
    const publicId = first.stdout.trim();
    expect(first.stderr).toContain(`Published dashboard ${publicId} version 1`);
    const second = JSON.parse((await plinth(['workbooks', 'publish', d, id, '--title', 'Sales', '--json'], { env: env() })).stdout);
    expect(second).toMatchObject({ publicId, versionNumber: 2, title: 'Sales', allowEmbed: false });

    const enabled = await plinth(['embed', 'enable-dashboard', d, publicId], { env: env(), stderrIsTTY: true });
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stderr).toContain(`Embedding of dashboard ${publicId} enabled`);
    const shown = await plinth(['embed', 'dashboard', publicId], { env: env() });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^Embedding +enabled$/m);
    // As an embedded user sees it: an embed token of the deployment.
    const session = (await plinth(['embed', 'generate-session', '--deployment', d, '--external-id', 'ann'], { env: env() })).stdout.trim();
    const token = (await plinth(['embed', 'token', session], { env: env() })).stdout.trim();
    const embedded = await plinth(['embed', 'dashboard', publicId, '--token', token, '--json'], { env: env() });
    expect(embedded.code, embedded.stderr).toBe(0);
    expect(JSON.parse(embedded.stdout)).toMatchObject({ publicId, versionNumber: 2 });
    const disabled = await plinth(['embed', 'disable-dashboard', d, publicId, '--json'], { env: env() });
    expect(JSON.parse(disabled.stdout).allowEmbed).toBe(false);
    const hidden = await plinth(['embed', 'dashboard', publicId, '--token', token], { env: env() });
    expect(hidden.code).toBe(1);
    expect(hidden.stderr).toMatch(/not found/);

    const archived = await plinth(['workbooks', 'publish', d, id, '--archive'], { env: env(), stderrIsTTY: true });
    expect(archived.stderr).toContain(`Archived dashboard ${publicId}`);
    const refused = await plinth(['embed', 'enable-dashboard', d, publicId], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/only a published dashboard can be embedded/);
  });

  it('a bad widget is refused naming it; usage errors exit 2', async () => {
    const d = await deployment();
    const id = String(JSON.parse((await plinth(['workbooks', 'create', d, '--json'], { env: env() })).stdout).id);
    const bad = await plinth(
      ['workbooks', 'dashboard', d, id, '-d', '{"widgets":[{"id":"c","type":"CHART","position":{"x":0,"y":0,"w":1,"h":1}}]}'],
      {
        env: env(),
      },
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/widgets\[0\] \(id "c"\): a CHART widget needs config\.reportId/);
    for (const argv of [
      ['workbooks', 'dashboard', d, id],
      ['workbooks', 'update', d, id],
      ['workbooks', 'get', d, 'x'],
    ]) {
      const result = await plinth(argv, { env: env() });
      expect(result.code, argv.join(' ')).toBe(2);
    }
  });
});
