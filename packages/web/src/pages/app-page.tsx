import { useEffect } from 'preact/hooks';
import { host } from '../lib/host';
import { readParams } from '../lib/params';
import { useSession } from '../session/use-session';
import { Expired, Failed, Opening, PageMessage } from './states';
import { applyTheme } from './theme';
import { useHostTheme } from './use-host-theme';

/** Creator mode (`/embed/d/{deploymentId}/app?session=…`): round two builds the app here. */
export default function AppPage() {
  const state = useSession('session');
  const theme = useHostTheme();
  const creator = state.status === 'ready' && state.session.claims.creatorMode === true;
  useEffect(() => {
    if (creator) host.loaded({ page: 'app' });
  }, [creator]);
  if (state.status === 'opening') return <Opening />;
  if (state.status === 'expired') return <Expired />;
  if (state.status === 'error') return <Failed message={state.message} />;
  applyTheme(theme.mode ?? readParams().theme, state.session.claims.embedTheme, theme.overrides);
  return creator ? (
    <PageMessage title="Workbooks" kind="app">
      <p>The creator app is not available on this server yet.</p>
    </PageMessage>
  ) : (
    <PageMessage title="Creator mode is not enabled for this link" kind="forbidden" code="forbidden" />
  );
}
