import { useMemo, useState } from 'preact/hooks';
import type { Palette } from '../charts/chart-options';
import { Header } from '../header/header';
import type { Formatter } from '../lib/format';
import type { PageParams } from '../lib/params';
import type { EmbedSession } from '../session/session';
import { creatorApi } from './api';
import { WorkbookList } from './workbook-list';
import { WorkbookView } from './workbook-view';
import './app.css';

/** How the app draws: the viewer's locale and the page's theme, as the dashboard page draws. */
export interface AppLook {
  format: Formatter;
  palette: Palette;
  params: PageParams;
}

interface Props {
  session: EmbedSession;
  look: AppLook;
  /** Opened on this workbook (the dashboard page's Edit and Duplicate), else on the list. */
  workbookId?: number;
  /** Back to what opened the app (the dashboard page); absent on the app page itself. */
  onExit?: () => void;
}

/**
 * Creator mode: the embed tenant's workbooks, one workbook's reports and dashboard, the query
 * builder. Everything goes through the session's one token; nothing here starts a new session.
 */
export function AppScreen({ session, look, workbookId, onExit }: Props) {
  const api = useMemo(() => creatorApi(session), [session]);
  const [open, setOpen] = useState<number | null>(workbookId ?? null);
  const params = { ...look.params, hideEdit: true, hideDuplicate: true, hideBackButton: look.params.hideBackButton || !onExit };
  return (
    <div class="page page-app">
      <Header title="Workbooks" user={session.claims.user} creatorMode={session.claims.creatorMode} params={params} />
      <main class="app-main">
        {onExit ? (
          <button type="button" class="button" data-action="exit-app" onClick={onExit}>
            Back to the dashboard
          </button>
        ) : null}
        {open === null ? (
          <WorkbookList api={api} onOpen={setOpen} />
        ) : (
          <WorkbookView
            key={open}
            session={session}
            api={api}
            look={look}
            workbookId={open}
            onOpen={setOpen}
            onClose={() => setOpen(null)}
          />
        )}
      </main>
    </div>
  );
}

export { creatorApi } from './api';
