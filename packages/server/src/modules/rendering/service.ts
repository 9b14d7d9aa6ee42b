import type { AddressInfo } from 'node:net';
import type { PlinthApp } from '../../app.js';
import type { ServiceContext } from '../module.js';
import { accountHost, onHost, renderOrigin } from './addresses.js';
import { withPage } from './browser.js';
import { capture } from './capture.js';
import { RenderError } from './errors.js';
import type { Rendering, RenderInput, ViewerInput } from './types.js';
import { canonical, mintSession, sha256, viewerFingerprint } from './viewer.js';

const FORMATS = new Set(['png', 'pdf']);

/** Dashboards drawn in the process's headless Chromium through the embed page, as one viewer sees them. */
export class RenderingService {
  private listening: () => AddressInfo | string | null | undefined = () => undefined;

  constructor(private readonly ctx: Pick<ServiceContext, 'config' | 'services'>) {}

  /** The finished app: its listener is the server the browser opens when PLINTH_RENDER_URL is unset. */
  attach(app: PlinthApp): void {
    this.listening = () => (app.server.listening ? app.server.address() : undefined);
  }

  async render(input: RenderInput): Promise<Rendering> {
    const unknown = input.formats.filter((f) => !FORMATS.has(f));
    if (unknown.length > 0) throw new RenderError(`Unsupported rendering format ${unknown.join(', ')}: png and pdf are`, false);
    const origin = renderOrigin(this.ctx.config, this.listening());
    const { sessionId, account } = await mintSession(this.ctx.services, input);
    const host = accountHost(this.ctx.config, account, origin);
    const path = `/embed/dashboard/${encodeURIComponent(input.dashboard)}`;
    const url = `${onHost(origin, host)}${path}?${new URLSearchParams({ session: sessionId }).toString()}`;
    const captured = await withPage(origin.hostname, (page) => capture(page, url, input.formats));
    const publicUrl = this.ctx.config.publicUrl ? new URL(this.ctx.config.publicUrl) : origin;
    return {
      ...(captured.png ? { png: captured.png } : {}),
      ...(captured.pdf ? { pdf: captured.pdf } : {}),
      dataFingerprint: sha256(canonical(captured.widgets)),
      link: `${onHost(publicUrl, host)}${path}`,
      widgets: captured.widgets,
    };
  }

  fingerprint(input: ViewerInput): Promise<string> {
    return viewerFingerprint(this.ctx.services, input);
  }
}
