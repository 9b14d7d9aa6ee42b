import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ChatLauncher } from '../chat/chat-launcher';
import { DashboardView, type DashboardControl } from '../dashboard/dashboard-view';
import { dashboardEvents } from '../dashboard/events';
import { hostFilters, presetsFrom, type ActiveFilter } from '../dashboard/filters';
import type { Dashboard } from '../dashboard/model';
import { Header } from '../header/header';
import { ApiFailure, apiGet } from '../lib/api';
import { formatter } from '../lib/format';
import { readParams } from '../lib/params';
import type { PageProps } from '../router';
import type { EmbedSession } from '../session/session';
import { useSession } from '../session/use-session';
import { Expired, Failed, Opening, PageMessage } from './states';
import { applyTheme } from './theme';
import { useHostCommands } from './use-host-theme';

type Loaded = { status: 'loading' } | { status: 'ready'; dashboard: Dashboard } | { status: 'error'; message: string; code: number };

/** `/embed/dashboard/{publicId}?session=…`: a published dashboard as the embed user sees it. */
export default function DashboardPage({ route }: PageProps) {
  const state = useSession('session');
  if (route.page !== 'dashboard') return null;
  if (state.status === 'opening') return <Opening />;
  if (state.status === 'expired') return <Expired />;
  if (state.status === 'error') return <Failed message={state.message} />;
  return <DashboardScreen session={state.session} publicId={route.publicId} />;
}

function DashboardScreen({ session, publicId }: { session: EmbedSession; publicId: string }) {
  const params = useMemo(() => readParams(), []);
  const [presets, setPresets] = useState<ActiveFilter[]>(() => presetsFrom());
  const format = useMemo(() => formatter(params.locale), [params]);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [chatOpen, setChatOpen] = useState(false);
  const control = useRef<DashboardControl>(null);
  const events = dashboardEvents();
  const theme = useHostCommands({
    // Before the dashboard is on screen, the host's filters stand in for the link's presets.
    setFilters: (filters) => (control.current ? control.current.replaceFilters(hostFilters(filters)) : setPresets(hostFilters(filters))),
    refresh: () => control.current?.refresh(),
  });

  useEffect(() => {
    apiGet<Dashboard>(session, `/api/v1/embed/dashboard/${encodeURIComponent(publicId)}`).then(
      (dashboard) => setLoaded({ status: 'ready', dashboard }),
      (error: Error) => setLoaded({ status: 'error', message: error.message, code: error instanceof ApiFailure ? error.status : 0 }),
    );
  }, [publicId]);

  const dashboard = loaded.status === 'ready' ? loaded.dashboard : null;
  const palette = useMemo(
    () => dashboard && applyTheme(theme.mode ?? params.theme, dashboard.config.theme, session.claims.embedTheme, theme.overrides),
    [dashboard, theme],
  );

  if (loaded.status === 'loading') return <Opening />;
  if (loaded.status === 'error') {
    if (loaded.code === 401) return <Expired />;
    if (loaded.code === 404 || loaded.code === 403)
      return (
        <PageMessage
          title="This dashboard is not available"
          kind="not-found"
          code={loaded.code === 404 ? 'not_found' : 'forbidden'}
          message={loaded.message}
        >
          <p>It may have been unpublished, or this link does not open it.</p>
        </PageMessage>
      );
    return <Failed message={loaded.message} />;
  }
  if (!dashboard || !palette) return null;
  const title = dashboard.config.title ?? dashboard.title ?? 'Dashboard';
  const chatShown = session.claims.settings?.showDashboardChat !== false;
  const openChat = chatShown ? () => setChatOpen(true) : undefined;
  return (
    <div class={chatOpen ? 'page page-dashboard with-chat' : 'page page-dashboard'}>
      <Header title={title} claims={session.claims} params={params} />
      <main class="dashboard">
        {dashboard.description ? <p class="muted">{dashboard.description}</p> : null}
        <DashboardView
          session={session}
          dashboard={dashboard}
          title={title}
          format={format}
          palette={palette}
          presets={presets}
          events={events}
          control={control}
          {...(openChat ? { openChat } : {})}
        />
      </main>
      {chatShown ? <ChatLauncher session={session} publicDashboardId={publicId} open={chatOpen} setOpen={setChatOpen} /> : null}
    </div>
  );
}
