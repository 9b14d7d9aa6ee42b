import { useSession } from '../session/use-session';
import { Expired, Failed, Opening, PageMessage } from './states';
import { AccountTheme } from './account-theme';

/** Creator mode (`/embed/d/{deploymentId}/app?session=…`): round two builds the app here. */
export default function AppPage() {
  const state = useSession('session');
  if (state.status === 'opening') return <Opening />;
  if (state.status === 'expired') return <Expired />;
  if (state.status === 'error') return <Failed message={state.message} />;
  return (
    <>
      <AccountTheme session={state.session} />
      {state.session.claims.creatorMode ? (
        <PageMessage title="Workbooks" kind="app">
          <p>The creator app is not available on this server yet.</p>
        </PageMessage>
      ) : (
        <PageMessage title="Creator mode is not enabled for this link" kind="forbidden" />
      )}
    </>
  );
}
