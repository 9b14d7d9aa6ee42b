import { useEffect } from 'preact/hooks';
import type { EmbedSession } from '../session/session';
import { readParams } from '../lib/params';
import { applyTheme } from './theme';
import { useHostTheme } from './use-host-theme';

/** The chat and creator pages' answer to the host's setTheme: laid over the session's embed theme. */
export function HostThemeLayer({ session }: { session: EmbedSession }) {
  const theme = useHostTheme();
  useEffect(() => {
    if (!theme.mode && !theme.overrides) return;
    applyTheme(theme.mode ?? readParams().theme, { embed: { ...(session.claims.embedTheme ?? {}), ...(theme.overrides ?? {}) } });
  }, [theme]);
  return null;
}
