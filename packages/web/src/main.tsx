import { render } from 'preact';
import './styles.css';
import { setChatPanel } from './chat/chat-slot';
import { LazyChatPanel } from './chat/lazy-panel';
import { setDashboardEvents } from './dashboard/events';
import { hostDashboardEvents } from './lib/host-events';
import { loadPage, routeOf } from './router';

/**
 * The one entry of every embed page: it connects to the host page that frames it (lib/host.ts),
 * finds the page from the path and loads only that page's code.
 */
setChatPanel(LazyChatPanel);
setDashboardEvents(hostDashboardEvents);
const root = document.getElementById('app');
if (root) {
  const route = routeOf(location.pathname);
  void loadPage(route).then((Page) => render(<Page route={route} />, root));
}
