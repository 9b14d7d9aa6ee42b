import type { Services } from '../module.js';
import type { Rendering, RenderInput, ViewerInput } from './types.js';

/**
 * What other modules may use of rendering: a published dashboard drawn in headless Chromium as
 * one viewer sees it, through the embed page, to PNG and PDF; and the fingerprint that says which
 * viewers may share one rendering.
 */
export type { RenderedWidget, RenderFormat, Rendering, RenderInput, Viewer, ViewerInput } from './types.js';
export { RenderError } from './errors.js';

/**
 * Renders `dashboard` as `viewer` sees it. Fails with a RenderError: `retryable` when the browser
 * crashed or timed out, not when the dashboard, deployment or viewer cannot be rendered at all.
 */
export function renderDashboard(services: Pick<Services, 'rendering'>, input: RenderInput): Promise<Rendering> {
  return services.rendering.render(input);
}

/**
 * Equal for two viewers whose renderings of this dashboard show the same rows: a hash of the
 * deployment, the dashboard and the caller the data API's access policies evaluate (groups,
 * attribute values and security context, as the viewer's embed token carries them).
 */
export function viewerFingerprint(services: Pick<Services, 'rendering'>, input: ViewerInput): Promise<string> {
  return services.rendering.fingerprint(input);
}

/** Closes the process's rendering browsers now (a stopping server, the end of a test file); the next rendering starts one. */
export { closeBrowsers as closeRenderingBrowsers } from './browser.js';
