import { useMemo } from 'preact/hooks';
import { AppScreen } from '../app/app-screen';
import { formatter } from '../lib/format';
import { readParams } from '../lib/params';
import type { PageProps } from '../router';
import type { EmbedSession } from '../session/session';
import { useSession } from '../session/use-session';
import { AccountTheme } from './account-theme';
import { Expired, Failed, Opening, PageMessage } from './states';
import { applyTheme } from './theme';

/** Creator mode (`/embed/d/{deploymentId}/app?session=…`): the embed tenant's workbooks, reports and dashboards. */
export default function AppPage({ route }: PageProps) {
  const state = useSession('session');
  if (state.status === 'opening') return <Opening />;
  if (state.status === 'expired') return <Expired />;
  if (state.status === 'error') return <Failed message={state.message} />;
  const { claims } = state.session;
  if (!claims.creatorMode) return <PageMessage title="Creator mode is not enabled for this link" kind="forbidden" />;
  if (route.page === 'app' && route.deploymentId !== claims.deploymentId)
    return (
      <PageMessage title="This link does not open this deployment" kind="not-found">
        <p>The session was made for another deployment.</p>
      </PageMessage>
    );
  return <CreatorApp session={state.session} />;
}

function CreatorApp({ session }: { session: EmbedSession }) {
  const params = useMemo(() => readParams(), []);
  const look = useMemo(
    () => ({ params, format: formatter(params.locale), palette: applyTheme(params.theme, { embed: session.claims.embedTheme }) }),
    [session],
  );
  return (
    <>
      <AccountTheme session={session} />
      <AppScreen session={session} look={look} />
    </>
  );
}
