import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestServer, type TestUser } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import { MAX_OPEN_UPLOADS } from './public.js';
import { bareCube } from '../../test-support/models.js';

const hash = (content: string) => createHash('sha256').update(content, 'utf8').digest('hex');
const manifestOf = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([path, c]) => [path, hash(c)]));

/** One deployment of a fresh account, with helpers that speak the upload API as the admin's key. */
async function deployment(server: TestServer) {
  const account = await server.newAccount();
  const created = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
  const base = `/build/api/v1/deployments/${created.body.id}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, as: TestUser = account.admin) =>
    account.request({ method, url: `${base}${url}`, body, as });
  const start = (body: Record<string, unknown>, as?: TestUser) => call('POST', '/uploads', body, as);
  const put = (id: string, path: string, content: string) => call('PUT', `/uploads/${id}/files`, { path, content });
  const finish = (id: string) => call('POST', `/uploads/${id}/finish`);
  /** A whole deploy, the way the CLI does it: start, upload what is asked, finish. */
  const deploy = async (files: Record<string, string>, options: Record<string, unknown> = {}) => {
    const started = await start({ ...options, files: manifestOf(files) });
    expect(started.status, started.text).toBe(201);
    for (const path of started.body.upload) expect((await put(started.body.uploadId, path, files[path]!)).status).toBe(200);
    const finished = await finish(started.body.uploadId);
    expect(finished.status, finished.text).toBe(200);
    return { started: started.body, finished: finished.body };
  };
  const hashes = async (branch = '') => (await call('GET', `/file-hashes?branch=${encodeURIComponent(branch)}`)).body;
  const builds = (commitId: number) =>
    server.store.db.selectFrom('model_build').select(['id', 'trigger']).where('commit_id', '=', commitId).execute();
  return { account, id: created.body.id as number, call, start, put, finish, deploy, hashes, builds };
}

const first = {
  'model/cubes/orders.yml': bareCube('orders'),
  'model/cubes/users.yml': bareCube('users'),
  'model/views/sales.yml': 'views: []\n',
};

describeOnStores('data model uploads (plinth deploy)', (server) => {
  it('a first deploy uploads every file, commits them at once and queues exactly one build', async () => {
    const d = await deployment(server());
    const { started, finished } = await d.deploy(first, { message: 'First deploy' });
    expect(started).toEqual({
      uploadId: expect.any(String),
      branchName: 'main',
      baseCommitId: expect.any(Number),
      expiresAt: expect.any(String),
      upload: Object.keys(first).sort(),
      unchanged: 0,
    });
    expect(finished).toEqual({
      uploadId: started.uploadId,
      branchName: 'main',
      commitId: expect.any(Number),
      changed: true,
      added: Object.keys(first).sort(),
      modified: [],
      deleted: [],
      buildId: expect.any(Number),
    });
    expect((await d.hashes()).hashes).toEqual(manifestOf(first));
    expect(await d.builds(finished.commitId)).toEqual([{ id: finished.buildId, trigger: 'deploy' }]);
  });

  it('a redeploy asks only for changed files, deletes what is missing, and --keep-missing keeps it', async () => {
    const d = await deployment(server());
    await d.deploy(first);
    const next = { ...first, 'model/cubes/orders.yml': bareCube('orders', 'orders_v2'), 'model/cubes/items.yml': bareCube('items') };
    delete (next as Record<string, string>)['model/views/sales.yml'];
    const { started, finished } = await d.deploy(next);
    expect(started).toMatchObject({ upload: ['model/cubes/items.yml', 'model/cubes/orders.yml'], unchanged: 1 });
    expect(finished).toMatchObject({
      added: ['model/cubes/items.yml'],
      modified: ['model/cubes/orders.yml'],
      deleted: ['model/views/sales.yml'],
    });

    const kept = await d.deploy({ 'model/cubes/users.yml': bareCube('users', 'people') }, { keepMissing: true });
    expect(kept.finished).toMatchObject({ added: [], modified: ['model/cubes/users.yml'], deleted: [] });
    expect(Object.keys((await d.hashes()).hashes).sort()).toEqual([
      'model/cubes/items.yml',
      'model/cubes/orders.yml',
      'model/cubes/users.yml',
    ]);
  });

  it('content the account already holds travels no bytes; a deploy with no change still builds once', async () => {
    const d = await deployment(server());
    await d.deploy(first);
    const copied = await d.start({ files: manifestOf({ ...first, 'model/cubes/orders_copy.yml': bareCube('orders') }) });
    expect(copied.body).toMatchObject({ upload: [], unchanged: 3 });
    const same = await d.deploy(first);
    expect(same.started.upload).toEqual([]);
    expect(same.finished).toMatchObject({ changed: false, added: [], modified: [], deleted: [], buildId: expect.any(Number) });
    expect(await d.builds(same.finished.commitId)).toHaveLength(2);
  });

  it('finish merges into a head that moved on other files, and refuses a conflict, writing nothing', async () => {
    const d = await deployment(server());
    await d.deploy(first);
    const a = await d.start({ files: manifestOf({ ...first, 'model/cubes/orders.yml': bareCube('orders', 'a') }) });
    const b = await d.start({ files: manifestOf({ ...first, 'model/cubes/users.yml': bareCube('users', 'b') }) });
    const c = await d.start({ files: manifestOf({ ...first, 'model/cubes/orders.yml': bareCube('orders', 'c') }) });
    await d.put(a.body.uploadId, 'model/cubes/orders.yml', bareCube('orders', 'a'));
    await d.put(b.body.uploadId, 'model/cubes/users.yml', bareCube('users', 'b'));
    await d.put(c.body.uploadId, 'model/cubes/orders.yml', bareCube('orders', 'c'));
    expect((await d.finish(a.body.uploadId)).status).toBe(200);
    const merged = await d.finish(b.body.uploadId);
    expect(merged.body).toMatchObject({ changed: true, modified: ['model/cubes/users.yml'] });
    const head = await d.hashes();
    expect(head.hashes).toMatchObject({
      'model/cubes/orders.yml': hash(bareCube('orders', 'a')),
      'model/cubes/users.yml': hash(bareCube('users', 'b')),
    });
    const conflict = await d.finish(c.body.uploadId);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'conflict', conflicts: ['model/cubes/orders.yml'] });
    expect(conflict.body.error).toBe('Conflicting changes to model/cubes/orders.yml on branch main');
    expect((await d.hashes()).commitId).toBe(head.commitId);
    // The session stays open: abort it.
    expect((await d.call('DELETE', `/uploads/${c.body.uploadId}`)).body).toEqual({ uploadId: c.body.uploadId, state: 'aborted' });
  });

  it('an abandoned upload leaves the branch as it was, is refused once expired, and the sweep deletes it', async () => {
    const s = server();
    const d = await deployment(s);
    await d.deploy(first);
    const before = await d.hashes();
    const files = { ...first, 'model/cubes/orders.yml': bareCube('orders', 'x'), 'model/cubes/new.yml': bareCube('new') };
    const started = await d.start({ files: manifestOf(files) });
    expect((await d.put(started.body.uploadId, 'model/cubes/new.yml', files['model/cubes/new.yml'])).status).toBe(200);
    expect(await d.hashes()).toEqual(before);

    await s.store.db
      .updateTable('model_upload')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', started.body.uploadId)
      .execute();
    const late = await d.put(started.body.uploadId, 'model/cubes/orders.yml', files['model/cubes/orders.yml']);
    expect(late.status).toBe(404);
    expect(late.body.error).toBe(`Upload session ${started.body.uploadId} not found or expired`);
    expect((await d.finish(started.body.uploadId)).status).toBe(404);

    s.jobs.queue.now = () => Date.now();
    await s.jobs.queue.enqueue({ kind: 'retention.sweep' });
    await s.jobs.runUntilIdle();
    const left = await s.store.db.selectFrom('model_upload').select('id').where('id', '=', started.body.uploadId).execute();
    expect(left).toEqual([]);
    expect(
      await s.store.db.selectFrom('model_upload_file').select('path').where('upload_id', '=', started.body.uploadId).execute(),
    ).toEqual([]);
    expect(await d.hashes()).toEqual(before);
  });

  it('an account holds at most MAX_OPEN_UPLOADS open sessions; a finished or expired one frees its place', async () => {
    const s = server();
    const d = await deployment(s);
    const files = { 'model/cubes/orders.yml': bareCube('orders') };
    const first = await d.start({ files: manifestOf(files) });
    expect(first.status).toBe(201);
    // The others of the account's quota, as rows: starting them one by one through the API only costs time.
    const row = await s.store.db.selectFrom('model_upload').selectAll().where('id', '=', first.body.uploadId).executeTakeFirstOrThrow();
    const others = Array.from({ length: MAX_OPEN_UPLOADS - 1 }, (_, i) => ({
      ...row,
      manifest: JSON.stringify(row.manifest),
      id: `${row.id}-${i}`,
    }));
    await s.store.db.insertInto('model_upload').values(others).execute();
    const refused = await d.start({ files: manifestOf(files) });
    expect([refused.status, refused.body.error]).toEqual([
      422,
      `The account has ${MAX_OPEN_UPLOADS} open upload sessions, the most it may hold; finish or abort one, or wait until they expire (1 hour after they started)`,
    ]);
    expect((await d.put(first.body.uploadId, 'model/cubes/orders.yml', files['model/cubes/orders.yml'])).status).toBe(200);
    expect((await d.finish(first.body.uploadId)).status).toBe(200);
    expect((await d.start({ files: manifestOf(files) })).status).toBe(201);
    await s.store.db
      .updateTable('model_upload')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', 'like', `${row.id}-%`)
      .execute();
    expect((await d.start({ files: manifestOf(files) })).status).toBe(201);
  });

  it('finished and aborted sessions are gone; finish names the files never uploaded', async () => {
    const d = await deployment(server());
    const started = await d.start({ files: manifestOf(first) });
    const id = started.body.uploadId;
    await d.put(id, 'model/cubes/users.yml', first['model/cubes/users.yml']);
    const early = await d.finish(id);
    expect(early.status).toBe(400);
    expect(early.body.error).toBe(`Files never uploaded to upload ${id}: model/cubes/orders.yml, model/views/sales.yml`);
    await d.put(id, 'model/cubes/orders.yml', first['model/cubes/orders.yml']);
    await d.put(id, 'model/views/sales.yml', first['model/views/sales.yml']);
    expect((await d.finish(id)).status).toBe(200);
    for (const again of [await d.finish(id), await d.call('DELETE', `/uploads/${id}`), await d.put(id, 'model/views/sales.yml', 'x')]) {
      expect(again.status).toBe(404);
      expect(again.body.error).toBe(`Upload session ${id} not found or expired`);
    }
    expect((await d.call('DELETE', '/uploads/upl_nope')).status).toBe(404);
  });

  describe('bad input', () => {
    it.each([
      ['../etc/passwd', 'Invalid path "../etc/passwd"'],
      ['/model/a.yml', 'Invalid path "/model/a.yml"'],
      ['model//a.yml', 'Invalid path "model//a.yml"'],
      ['model\\a.yml', 'Invalid path "model\\\\a.yml"'],
      // The JSON body parser refuses a NUL in a property name before the route sees it.
      ['model/a\u0000.yml', 'must not contain a NUL character'],
    ])('start refuses the path %j with 400', async (path, message) => {
      const d = await deployment(server());
      const response = await d.start({ files: { [path]: hash('x') } });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
    });

    it('start refuses a bad hash, an unknown field and more than 5,000 files', async () => {
      const d = await deployment(server());
      expect((await d.start({ files: { 'model/a.yml': 'abc' } })).status).toBe(400);
      const unknown = await d.start({ files: {}, force: true });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatch(/force/);
      const many = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`model/cubes/c${i}.yml`, hash(String(i))]));
      const tooMany = await d.start({ files: many });
      expect(tooMany.status).toBe(422);
      expect(tooMany.body).toMatchObject({ code: 'limit_exceeded', error: expect.stringContaining('at most 5000 files') });
      const nul = await d.start({ files: {}, message: 'a\u0000b' });
      expect(nul.status).toBe(400);
      expect(nul.body.error).toMatch(/message/);
      expect((await d.call('POST', '/uploads/upl%00x/finish')).status).toBe(400);
      expect((await d.start({ files: {}, branch: '../x' })).status).toBe(400);
      const missing = await d.start({ files: {}, branch: 'nope' });
      expect(missing.status).toBe(404);
    });

    it('a file must be in the manifest, hash to its hash, and be at most 1 MiB', async () => {
      const d = await deployment(server());
      const big = 'x'.repeat(1024 * 1024 + 1);
      const started = await d.start({ files: { 'model/a.yml': hash('a: 1\n'), 'model/big.yml': hash(big) } });
      const id = started.body.uploadId;
      const wrong = await d.put(id, 'model/a.yml', 'a: 2\n');
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toContain('Content of model/a.yml does not match its hash in the manifest');
      const stranger = await d.put(id, 'model/b.yml', 'b: 1\n');
      expect(stranger.status).toBe(400);
      expect(stranger.body.error).toContain('"model/b.yml" is not in the manifest');
      const tooBig = await d.put(id, 'model/big.yml', big);
      expect(tooBig.status).toBe(413);
      expect(tooBig.body).toMatchObject({ code: 'payload_too_large', error: expect.stringContaining('model/big.yml') });
      expect((await d.put(id, 'model/a.yml', 'a: 1\n')).body).toEqual({ path: 'model/a.yml', hash: hash('a: 1\n'), size: 5 });
    });
  });

  it("deploys to the caller's dev-mode branch by default; its session is the owner's alone", async () => {
    const d = await deployment(server());
    await d.deploy(first);
    const entered = await d.call('POST', '/dev-mode', { branch: 'main' });
    expect(entered.status, entered.text).toBe(200);
    const dev = entered.body.branchName as string;
    const { started, finished } = await d.deploy({ ...first, 'model/cubes/orders.yml': bareCube('orders', 'dev') });
    expect(started.branchName).toBe(dev);
    expect(finished).toMatchObject({ branchName: dev, modified: ['model/cubes/orders.yml'], buildId: expect.any(Number) });
    expect((await d.hashes('main')).hashes).toEqual(manifestOf(first));

    const other = await d.account.addUser('admin');
    const mine = await d.start({ files: manifestOf(first) });
    expect((await d.call('POST', `/uploads/${mine.body.uploadId}/finish`, undefined, other)).status).toBe(404);
    const theirs = await d.start({ files: manifestOf(first), branch: dev }, other);
    expect(theirs.status).toBe(404);
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
