import { expect, it } from 'vitest';
import { PAGE_CSP } from '../../pipeline/response-policy.js';
import { describeOnStores } from '../../test-support/server.js';
import { readWebBuild } from './assets.js';
import { untilFound } from './routes.js';
import { readSdk, sdkAnswer, SDK_FILE } from './sdk.js';

const built = readWebBuild();

describeOnStores('embed pages', (server) => {
  it('the root is a small page saying what the server is, linking the spec, unframeable and scriptless', async () => {
    const account = await server().newAccount();
    const page = await account.request({ method: 'GET', url: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('href="/api/v1/spec"');
    expect(page.text).not.toContain('<script');
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-request-id']).toBeTruthy();
  });

  it.each(['/embed/dashboard/abc123', '/embed/chat', '/embed/d/7/app'])(
    '%s answers the HTML shell: no-store, a strict CSP framable by any origin, no X-Frame-Options',
    async (url) => {
      const account = await server().newAccount();
      const page = await account.request({ method: 'GET', url: `${url}?session=whatever` });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['x-frame-options']).toBeUndefined();
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("img-src 'self' data: https: http:");
      expect(csp).toContain('frame-ancestors *');
      expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
      // No inline script: every script of the shell is a file of ours.
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.text).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
    },
  );

  it("the shell's frame-ancestors are the account's origins once it names some", async () => {
    const account = await server().newAccount();
    const set = await account.request({
      method: 'PATCH',
      url: '/api/v1/tenant-settings',
      as: account.admin,
      body: { embedFrameAncestors: ['https://app.example.com', 'http://localhost:3000'] },
    });
    expect(set.status).toBe(200);
    const page = await account.request({ method: 'GET', url: '/embed/dashboard/abc123' });
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors https:\/\/app\.example\.com http:\/\/localhost:3000$/);
    const other = await (await server().newAccount()).request({ method: 'GET', url: '/embed/chat' });
    expect(other.headers['content-security-policy']).toMatch(/frame-ancestors \*$/);
  });

  it('serves each asset of the build with its type and a year of immutable caching', async () => {
    expect(built, 'packages/web is built by npm run build').not.toBeNull();
    const account = await server().newAccount();
    for (const path of [...built!.assets.keys()].filter((p) => /\.(js|css)$/.test(p)).slice(0, 3)) {
      const asset = await account.request({ method: 'GET', url: path });
      expect(asset.status).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['content-type']).toBe(path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      expect(asset.text.length).toBeGreaterThan(0);
    }
  });

  it.each([
    '/assets/nothing.js',
    '/assets/../../package.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/assets/.vite/manifest.json',
    '/assets/',
  ])('%s is 404: only files the manifest names are served', async (url) => {
    const account = await server().newAccount();
    const response = await account.request({ method: 'GET', url });
    expect(response.status).toBe(404);
    expect(response.text).not.toContain('"name"');
  });

  it('/embed/sdk.js is the SDK bundle: a module script any origin may load, revalidated by its ETag', async () => {
    const sdk = readSdk();
    expect(sdk, 'packages/embed is bundled by npm run build').not.toBeNull();
    const account = await server().newAccount();
    const first = await account.request({ method: 'GET', url: '/embed/sdk.js', headers: { origin: 'https://app.example.com' } });
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(first.headers['access-control-allow-origin']).toBe('*');
    expect(first.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.text).toBe(sdk!.body.toString('utf8'));
    expect(first.text).toContain('plinth-dashboard');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await account.request({ method: 'GET', url: '/embed/sdk.js', headers: { 'if-none-match': `W/"other", ${etag}` } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const stale = await account.request({ method: 'GET', url: '/embed/sdk.js', headers: { 'if-none-match': '"other"' } });
    expect(stale.status).toBe(200);
  });

  it('a server without the SDK build answers 404 saying to run npm run build, and serves it once built', () => {
    expect(readSdk(`${SDK_FILE}.missing`)).toBeNull();
    expect(() => sdkAnswer(null, undefined)).toThrow(/not built on this server: run `npm run build`/);
    let built: ReturnType<typeof readSdk> = null;
    const sdk = untilFound(() => built);
    expect(sdk()).toBeNull();
    built = { body: Buffer.from('x'), etag: '"x"' };
    expect(sdk()).toBe(built);
  });

  it('the pages are not operations of the spec', async () => {
    const account = await server().newAccount();
    const spec = await account.request({ method: 'GET', url: '/api/v1/spec' });
    const paths = Object.keys(spec.body.paths);
    expect(
      paths.filter(
        (p) => p === '/' || p === '/embed/sdk.js' || p.startsWith('/embed/d') || p.startsWith('/embed/chat') || p.startsWith('/assets'),
      ),
    ).toEqual([]);
    expect(paths).not.toContain('/embed/dashboard/{publicId}');
  });
});
