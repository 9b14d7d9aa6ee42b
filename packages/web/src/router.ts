import type { FunctionComponent } from 'preact';

/**
 * The pages the server's HTML shell stands for (modules/embed-pages serves one shell for all):
 * Cube's URLs, so existing embed code works unchanged. A page reads its own parameters from the
 * URL; the route carries only what the path says.
 */
export type Route =
  { page: 'dashboard'; publicId: string } | { page: 'chat' } | { page: 'app'; deploymentId: number } | { page: 'unknown' };

export interface PageProps {
  route: Route;
}
export type Page = FunctionComponent<PageProps>;

export function routeOf(path: string): Route {
  const dashboard = /^\/embed\/dashboard\/([^/]+)\/?$/.exec(path);
  if (dashboard?.[1]) return { page: 'dashboard', publicId: decodeURIComponent(dashboard[1]) };
  if (/^\/embed\/chat\/?$/.test(path)) return { page: 'chat' };
  const app = /^\/embed\/d\/(\d+)\/app\/?$/.exec(path);
  if (app?.[1]) return { page: 'app', deploymentId: Number(app[1]) };
  return { page: 'unknown' };
}

/** Each page is its own chunk: the dashboard's budget does not pay for the chat or the creator app. */
const pages: Record<Route['page'], () => Promise<{ default: Page }>> = {
  dashboard: () => import('./pages/dashboard-page'),
  chat: () => import('./pages/chat-page'),
  app: () => import('./pages/app-page'),
  unknown: () => import('./pages/not-found-page'),
};

export async function loadPage(route: Route): Promise<Page> {
  return (await pages[route.page]()).default;
}
