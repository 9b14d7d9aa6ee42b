import { render } from 'preact';
import './styles.css';
import { setChatPanel } from './chat/chat-slot';
import { LazyChatPanel } from './chat/lazy-panel';
import { loadPage, routeOf } from './router';

setChatPanel(LazyChatPanel);

/** The one entry of every embed page: it finds the page from the path and loads only that page's code. */
const root = document.getElementById('app');
if (root) {
  const route = routeOf(location.pathname);
  void loadPage(route).then((Page) => render(<Page route={route} />, root));
}
