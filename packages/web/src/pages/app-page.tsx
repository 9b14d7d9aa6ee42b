import { useEffect, useMemo } from 'preact/hooks';
import { AppScreen } from '../app/app-screen';
import { formatter } from '../lib/format';
import { host } from '../lib/host';
import { readParams } from '../lib/params';
import type { PageProps } from '../router';
import type { EmbedSession } from '../session/session';
import { useSession } from '../session/use-session';
import { AccountTheme } from './account-theme';
import { HostThemeLayer } from './host-theme-layer';
import { Expired, Failed, Opening, PageMessage } from './states';
import { applyTheme } from './theme';

/** Creator mode (`/embed/d/{deploymentId}/app?session=…`): the embed tenant's workbooks, reports and dashboards. */
export default function AppPage({ route }: PageProps) {
  const state = useSession('session');
  const creator = state.status === 'ready' && state.session.claims.creatorMode === true;
  useEffect(() => {
    if (creator) host.loaded({ page: 'app' });
  }, [creator]);
  if (state.status === 'opening') return <Opening />;
  if (state.status === 'expired') return <Expired />;
  if (state.status === 'error') return <Failed message={state.message} />;
  const { claims } = state.session;
  if (!claims.creatorMode) return <PageMessage title="Creator mode is not enabled for this link" kind="forbidden" code="forbidden" />;
  if (route.page === 'app' && route.deploymentId !== claims.deploymentId)
    return (
      <PageMessage title="This link does not open this deployment" kind="not-found" code="not_found">
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
      <HostThemeLayer session={session} />
      <AppScreen session={session} look={look} />
    </>
  );
}
