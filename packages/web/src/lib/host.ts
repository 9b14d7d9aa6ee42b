import { connectHost, type CommandHandlers, type HostConnection } from '@plinth/embed/page';

/**
 * The embed page's link to the host page that frames it (`<plinth-dashboard>`), opened once when
 * the page starts, before the page knows what it shows: the host learns at once that the page
 * listens, and sizes its iframe from the page's height while it loads. Outside a frame it does nothing.
 *
 * Commands can arrive before the page that handles them has loaded (the element delivers what it
 * was given early as soon as the page is ready): the latest of each kind waits here until the page
 * takes them. A refresh that arrives before then is dropped: the page's first load is fresh anyway.
 */
type Pending = {
  setFilters?: Parameters<NonNullable<CommandHandlers['setFilters']>>;
  setTheme?: Parameters<NonNullable<CommandHandlers['setTheme']>>;
};

let handlers: CommandHandlers | null = null;
let pending: Pending = {};

export const host: HostConnection = connectHost({
  setFilters: (...args) => (handlers?.setFilters ? handlers.setFilters(...args) : (pending.setFilters = args)),
  setTheme: (...args) => (handlers?.setTheme ? handlers.setTheme(...args) : (pending.setTheme = args)),
  refresh: () => handlers?.refresh?.(),
});

// A framed page is as tall as its content (html height auto, no viewport-tall boxes), so the
// element can size its iframe to it and the host page scrolls instead of the frame.
if (host.framed) document.documentElement.dataset.framed = 'true';

/** The page's handlers of the host's commands from now on (with the commands that waited); returns the release. */
export function handleHostCommands(next: CommandHandlers): () => void {
  handlers = next;
  const waiting = pending;
  pending = {};
  if (waiting.setTheme) next.setTheme?.(...waiting.setTheme);
  if (waiting.setFilters) next.setFilters?.(...waiting.setFilters);
  return () => {
    if (handlers === next) handlers = null;
  };
}
