import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { embedSite, type EmbedSite } from '../embed-pages/test-fixtures.js';
import { closeRenderingBrowsers, renderDashboard, RenderError, viewerFingerprint, type Viewer } from './public.js';

/**
 * Dashboards rendered in the process's own Chromium through the embed page, against a listening
 * server with the demo deployment, whose policy shows each embedded user their country's rows.
 */
afterAll(closeRenderingBrowsers);

const embedUser = (externalId: string, country: string, segment: string): Viewer => ({
  kind: 'embed',
  externalId,
  userAttributes: [{ name: 'country', value: country }],
  securityContext: { segment },
});

/** The pages of a PDF: its page objects (Chromium writes no object streams). */
const pdfPages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0;

describeOnStores('rendering a dashboard as its viewer sees it', (server) => {
  let site: EmbedSite;
  beforeAll(async () => {
    site = await embedSite(server());
  });
  const input = (viewer: Viewer) => ({ accountId: site.account.id, deploymentId: site.deploymentId, dashboard: site.publicId, viewer });
  const rowsOf = (widgets: { id: string; rows: string[][] }[], id: string) => widgets.find((w) => w.id === id)?.rows;

  it('two embed users with different row policies get different data, equal ones the same fingerprint and data; PNG and PDF are real', async () => {
    const services = server().services;
    const ann = await renderDashboard(services, { ...input(embedUser('ann', 'USA', 'consumer')), formats: ['png', 'pdf'] });
    const bob = await renderDashboard(services, { ...input(embedUser('bob', 'France', 'corporate')), formats: ['png'] });
    expect(rowsOf(ann.widgets, 'by-country')?.map((row) => row[0])).toEqual(['USA']);
    expect(rowsOf(bob.widgets, 'by-country')?.map((row) => row[0])).toEqual(['France']);
    expect(rowsOf(ann.widgets, 'kpi')).not.toEqual(rowsOf(bob.widgets, 'kpi'));
    expect(ann.dataFingerprint).not.toBe(bob.dataFingerprint);
    // The tab container's chart is the chart's own: its rows are listed once, under it.
    expect(rowsOf(ann.widgets, 'tabs')).toEqual([]);
    expect(rowsOf(ann.widgets, 'trend')!.length).toBeGreaterThan(1);

    expect(ann.png!.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(ann.pdf!.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfPages(ann.pdf!)).toBeGreaterThanOrEqual(1);
    expect(bob.pdf).toBeUndefined();
    expect(ann.link).toBe(`${site.origin}/embed/dashboard/${site.publicId}`);

    // Another user with ann's attribute and context sees ann's rows: one fingerprint, one rendering's worth of data.
    const [annPrint, carlPrint, bobPrint] = await Promise.all([
      viewerFingerprint(services, input(embedUser('ann', 'USA', 'consumer'))),
      viewerFingerprint(services, input(embedUser('carl', 'USA', 'consumer'))),
      viewerFingerprint(services, input(embedUser('bob', 'France', 'corporate'))),
    ]);
    expect(carlPrint).toBe(annPrint);
    expect(bobPrint).not.toBe(annPrint);
    const carl = await renderDashboard(services, { ...input(embedUser('carl', 'USA', 'consumer')), formats: [] });
    expect(carl.dataFingerprint).toBe(ann.dataFingerprint);
    expect(carl.widgets).toEqual(ann.widgets);
  });

  it('a viewer who differs only in security context gets another fingerprint', async () => {
    const services = server().services;
    const consumer = await viewerFingerprint(services, input(embedUser('dan', 'USA', 'consumer')));
    const corporate = await viewerFingerprint(services, input(embedUser('dan', 'USA', 'corporate')));
    expect(corporate).not.toBe(consumer);
  });

  it('an unknown dashboard, deployment or user, or an unsupported format, is a RenderError not worth retrying', async () => {
    const services = server().services;
    const viewer = input(embedUser('ann', 'USA', 'consumer'));
    const failures = await Promise.all(
      [
        renderDashboard(services, { ...viewer, dashboard: 'no-such-dashboard', formats: ['png'] }),
        renderDashboard(services, { ...viewer, deploymentId: 2_000_000_000, formats: ['png'] }),
        renderDashboard(services, { ...input({ kind: 'user', userId: 2_000_000_000 }), formats: ['png'] }),
        renderDashboard(services, { ...viewer, formats: ['gif' as 'png'] }),
      ].map((rendering) =>
        rendering.then(
          () => undefined,
          (e: unknown) => e,
        ),
      ),
    );
    expect(failures.map((e) => (e as Error).message)).toEqual([
      'The dashboard page showed "This dashboard is not available It may have been unpublished, or this link does not open it." (not-found)',
      expect.stringContaining('Deployment 2000000000 not found'),
      expect.stringContaining('User 2000000000'),
      'Unsupported rendering format gif: png and pdf are',
    ]);
    for (const error of failures) {
      expect(error).toBeInstanceOf(RenderError);
      expect((error as RenderError).retryable, (error as Error).message).toBe(false);
    }
  });

  it('an internal user is rendered with their own groups and attributes', async () => {
    const rendering = await renderDashboard(server().services, { ...input({ kind: 'user', userId: site.account.member.id }), formats: [] });
    expect(rendering.widgets.map((w) => w.id)).toContain('by-country');
  });

  it('without Chromium a rendering fails with a RenderError worth retrying, and the next one, with it back, succeeds', async () => {
    const services = server().services;
    await closeRenderingBrowsers();
    const chromium = process.env.PLINTH_CHROMIUM;
    process.env.PLINTH_CHROMIUM = '/nonexistent/chromium';
    try {
      const error = await renderDashboard(services, { ...input(embedUser('ann', 'USA', 'consumer')), formats: ['png'] }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RenderError);
      expect((error as RenderError).retryable).toBe(true);
      expect((error as Error).message).toContain('/nonexistent/chromium');
    } finally {
      if (chromium === undefined) delete process.env.PLINTH_CHROMIUM;
      else process.env.PLINTH_CHROMIUM = chromium;
    }
    const again = await renderDashboard(services, { ...input(embedUser('ann', 'USA', 'consumer')), formats: [] });
    expect(rowsOf(again.widgets, 'by-country')?.map((row) => row[0])).toEqual(['USA']);
  });
});
