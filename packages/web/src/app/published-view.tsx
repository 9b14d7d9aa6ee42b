import { useEffect, useState } from 'preact/hooks';
import { DashboardView } from '../dashboard/dashboard-view';
import { noEvents } from '../dashboard/events';
import type { Dashboard } from '../dashboard/model';
import type { EmbedSession } from '../session/session';
import type { CreatorApi } from './api';
import type { AppLook } from './app-screen';

/**
 * The published dashboard as the tenant's viewers get it (getDashboard with this session's token),
 * drawn by the dashboard page's own view: a preview without leaving the app or opening a session.
 */
export function PublishedView({
  session,
  api,
  look,
  publicId,
  version,
}: {
  session: EmbedSession;
  api: CreatorApi;
  look: AppLook;
  publicId: string;
  version: number;
}) {
  const [dashboard, setDashboard] = useState<Dashboard | string | null>(null);
  useEffect(() => {
    setDashboard(null);
    api.dashboard(publicId).then(setDashboard, (error: Error) => setDashboard(error.message));
  }, [publicId, version]);
  if (dashboard === null)
    return (
      <p role="status">
        <span class="spinner" aria-hidden="true" /> Loading the published dashboard…
      </p>
    );
  if (typeof dashboard === 'string') return <p role="alert">Could not open the published dashboard: {dashboard}</p>;
  return (
    <div class="published" data-published={publicId}>
      <h3 class="widget-title">{dashboard.config.title ?? dashboard.title ?? 'Dashboard'}</h3>
      <DashboardView
        key={version}
        session={session}
        dashboard={dashboard}
        title={dashboard.config.title ?? dashboard.title ?? 'Dashboard'}
        format={look.format}
        palette={look.palette}
        presets={[]}
        events={noEvents}
      />
    </div>
  );
}
