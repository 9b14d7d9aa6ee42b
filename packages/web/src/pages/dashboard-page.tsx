import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ChatLauncher } from '../chat/chat-launcher';
import { DashboardView, type DashboardControl } from '../dashboard/dashboard-view';
import { dashboardEvents } from '../dashboard/events';
import { hostFilters, presetsFrom, type ActiveFilter } from '../dashboard/filters';
import type { Dashboard } from '../dashboard/model';
import { Header } from '../header/header';
import { Notices } from '../notices/notices';
import { ApiFailure, apiGet } from '../lib/api';
import { formatter } from '../lib/format';
import { readParams } from '../lib/params';
import type { PageProps } from '../router';
import { avatarUser, loadContext, type EmbedContext } from '../session/context';
import type { EmbedSession } from '../session/session';
import { useSession } from '../session/use-session';
import { Expired, Failed, Opening, PageMessage } from './states';
import { applyTheme } from './theme';
import { useHostCommands } from './use-host-theme';

type AppModule = typeof import('../app/app-screen');
/** Creator mode's app, opened in place by Edit or Duplicate (its chunk loads then), on a workbook. */
type Creator =
  { status: 'idle' } | { status: 'busy' } | { status: 'open'; app: AppModule; workbookId: number } | { status: 'error'; message: string };

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; dashboard: Dashboard; context: EmbedContext }
  | { status: 'error'; message: string; code: number };

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
  const link = useMemo(() => presetsFrom(), []);
  const [presets, setPresets] = useState<ActiveFilter[]>(link.presets);
  const format = useMemo(() => formatter(params.locale), [params]);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [chatOpen, setChatOpen] = useState(false);
  const [creator, setCreator] = useState<Creator>({ status: 'idle' });
  const [reload, setReload] = useState(0);
  const [chatQuestion, setChatQuestion] = useState<string | undefined>();
  const control = useRef<DashboardControl>(null);
  const events = dashboardEvents();
  const theme = useHostCommands({
    // Before the dashboard is on screen, the host's filters stand in for the link's presets.
    setFilters: (filters) => (control.current ? control.current.replaceFilters(hostFilters(filters)) : setPresets(hostFilters(filters))),
    refresh: () => control.current?.refresh(),
  });

  useEffect(() => {
    Promise.all([apiGet<Dashboard>(session, `/api/v1/embed/dashboard/${encodeURIComponent(publicId)}`), loadContext(session)]).then(
      ([dashboard, context]) => setLoaded({ status: 'ready', dashboard, context }),
      (error: Error) => setLoaded({ status: 'error', message: error.message, code: error instanceof ApiFailure ? error.status : 0 }),
    );
  }, [publicId, reload]);

  const ready = loaded.status === 'ready' ? loaded : null;
  // The host's theme (setTheme) is laid over the session's embed theme.
  const palette = useMemo(
    () =>
      ready &&
      applyTheme(theme.mode ?? params.theme, {
        app: ready.context.appTheme,
        dashboard: ready.dashboard.config.theme,
        embed: { ...(ready.context.embedTheme ?? {}), ...(theme.overrides ?? {}) },
      }),
    [ready, theme],
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
  const { dashboard, context } = loaded;
  if (!palette) return null;
  if (creator.status === 'open') {
    const { AppScreen } = creator.app;
    const exit = () => {
      setCreator({ status: 'idle' });
      setReload((n) => n + 1);
    };
    return <AppScreen session={session} look={{ params, format, palette }} workbookId={creator.workbookId} onExit={exit} />;
  }
  // Same page load, same token: a session is single-use, so the app opens here instead of on a new link.
  const openApp = async (duplicate: boolean) => {
    const workbookId = dashboard.workbookId;
    if (workbookId === undefined)
      return setCreator({ status: 'error', message: 'The server did not say which workbook this dashboard is.' });
    setCreator({ status: 'busy' });
    try {
      const app = await import('../app/app-screen');
      const target = duplicate ? (await app.creatorApi(session).duplicateWorkbook(workbookId)).id : workbookId;
      setCreator({ status: 'open', app, workbookId: target });
    } catch (error) {
      const message =
        error instanceof ApiFailure && error.status === 404
          ? 'Only dashboards made in creator mode by your team can be edited here.'
          : (error as Error).message;
      setCreator({ status: 'error', message });
    }
  };
  const title = dashboard.config.title ?? dashboard.title ?? 'Dashboard';
  const chatShown = context.showDashboardChat;
  const openChat = chatShown
    ? (question?: string) => {
        setChatQuestion(question);
        setChatOpen(true);
      }
    : undefined;
  return (
    <div class={chatOpen ? 'page page-dashboard with-chat' : 'page page-dashboard'}>
      <Header
        title={title}
        user={avatarUser(context)}
        creatorMode={context.creatorMode}
        params={params}
        onEdit={() => void openApp(false)}
        onDuplicate={() => void openApp(true)}
      />
      {creator.status === 'busy' ? (
        <p role="status" class="creator-note">
          Opening the editor…
        </p>
      ) : null}
      {creator.status === 'error' ? (
        <p role="alert" class="creator-note">
          {creator.message}
        </p>
      ) : null}
      <main class="dashboard">
        <Notices problems={[...params.problems, ...link.problems]} />
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
      {chatShown ? (
        <ChatLauncher session={session} publicDashboardId={publicId} open={chatOpen} setOpen={setChatOpen} question={chatQuestion} />
      ) : null}
    </div>
  );
}
