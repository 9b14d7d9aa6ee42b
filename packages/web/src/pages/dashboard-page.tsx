import { useEffect, useMemo, useState } from 'preact/hooks';
import { ChatLauncher } from '../chat/chat-launcher';
import { DashboardView } from '../dashboard/dashboard-view';
import { dashboardEvents } from '../dashboard/events';
import { presetsFrom } from '../dashboard/filters';
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
  const presets = useMemo(() => presetsFrom(), []);
  const format = useMemo(() => formatter(params.locale), [params]);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [chatOpen, setChatOpen] = useState(false);
  const [chatQuestion, setChatQuestion] = useState<string | undefined>();
  const events = dashboardEvents();

  useEffect(() => {
    apiGet<Dashboard>(session, `/api/v1/embed/dashboard/${encodeURIComponent(publicId)}`).then(
      (dashboard) => setLoaded({ status: 'ready', dashboard }),
      (error: Error) => {
        const code = error instanceof ApiFailure ? error.status : 0;
        setLoaded({ status: 'error', message: error.message, code });
        events.error({ publicId, message: error.message });
      },
    );
  }, [publicId]);

  if (loaded.status === 'loading') return <Opening />;
  if (loaded.status === 'error') {
    if (loaded.code === 401) return <Expired />;
    if (loaded.code === 404 || loaded.code === 403)
      return (
        <PageMessage title="This dashboard is not available" kind="not-found">
          <p>It may have been unpublished, or this link does not open it.</p>
        </PageMessage>
      );
    return <Failed message={loaded.message} />;
  }
  const { dashboard } = loaded;
  const palette = applyTheme(params.theme, dashboard.config.theme, session.claims.embedTheme);
  const title = dashboard.config.title ?? dashboard.title ?? 'Dashboard';
  const chatShown = session.claims.settings?.showDashboardChat !== false;
  const openChat = chatShown
    ? (question?: string) => {
        setChatQuestion(question);
        setChatOpen(true);
      }
    : undefined;
  return (
    <div class={chatOpen ? 'page page-dashboard with-chat' : 'page page-dashboard'}>
      <Header title={title} claims={session.claims} params={params} />
      <main class="dashboard">
        {dashboard.description ? <p class="muted">{dashboard.description}</p> : null}
        <DashboardView
          session={session}
          dashboard={dashboard}
          format={format}
          palette={palette}
          presets={presets}
          events={events}
          {...(openChat ? { openChat } : {})}
        />
      </main>
      {chatShown ? (
        <ChatLauncher session={session} publicDashboardId={publicId} open={chatOpen} setOpen={setChatOpen} question={chatQuestion} />
      ) : null}
    </div>
  );
}
