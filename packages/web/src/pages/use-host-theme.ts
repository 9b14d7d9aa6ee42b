import type { CommandHandlers } from '@plinth/embed/page';
import type { Theme } from '@plinth/embed/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import { handleHostCommands } from '../lib/host';

/** The host's theme as the page applies it: a mode, and colours laid over the dashboard's and the session's. */
export interface HostTheme {
  mode?: 'light' | 'dark';
  overrides?: Record<string, unknown>;
}

function hostTheme(theme: Theme, current: HostTheme): HostTheme {
  if (theme === 'light' || theme === 'dark') return { ...current, mode: theme };
  // The protocol's names, read as the theme records applyTheme reads (the embed theme's names).
  const overrides = {
    ...(theme.primaryColor ? { primaryColor: theme.primaryColor } : {}),
    ...(theme.font ? { font: theme.font } : {}),
  };
  return { mode: theme.mode ?? current.mode, overrides };
}

/**
 * The page's handlers of the host's commands while it is mounted. The latest handlers are called
 * (a ref), so a page can pass closures over its current state on each render.
 */
export function useHostCommands(handlers: Omit<CommandHandlers, 'setTheme'>): HostTheme {
  const [theme, setTheme] = useState<HostTheme>({});
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(
    () =>
      handleHostCommands({
        setTheme: (next) => setTheme((current) => hostTheme(next, current)),
        setFilters: (filters) => latest.current.setFilters?.(filters),
        refresh: () => latest.current.refresh?.(),
      }),
    [],
  );
  return theme;
}

/** A page that only themes itself at the host's word (the chat, the creator app). */
export const useHostTheme = () => useHostCommands({});
