import { useEffect, useMemo } from 'preact/hooks';
import { readParams } from '../lib/params';
import { Notices } from '../notices/notices';
import { loadContext } from '../session/context';
import type { EmbedSession } from '../session/session';
import { applyTheme } from './theme';

/**
 * The chat and creator pages' styling: the session's theme at once, then the account's app and
 * embed themes once getEmbedContext answers; and notices about URL parameters it could not use.
 */
export function AccountTheme({ session }: { session: EmbedSession }) {
  const params = useMemo(() => readParams(), []);
  useMemo(() => applyTheme(params.theme, { embed: session.claims.embedTheme }), []);
  useEffect(() => {
    const abort = new AbortController();
    void loadContext(session, abort.signal).then((context) => {
      if (!abort.signal.aborted) applyTheme(params.theme, { app: context.appTheme, embed: context.embedTheme });
    });
    return () => abort.abort();
  }, []);
  return <Notices problems={params.problems} />;
}
