import { useEffect, useState } from 'preact/hooks';
import type { Widget } from '../dashboard/model';
import type { EmbedSession } from '../session/session';
import type { CreatorApi, Report, Workbook } from './api';
import type { AppLook } from './app-screen';
import { append, ordered, chartWidget, textWidget } from './draft';
import { DraftEditor } from './draft-editor';
import { PublishedView } from './published-view';
import { QueryBuilder } from './query-builder';

interface Props {
  session: EmbedSession;
  api: CreatorApi;
  look: AppLook;
  workbookId: number;
  onOpen(id: number): void;
  onClose(): void;
}

type Loaded = { status: 'loading' } | { status: 'ready'; workbook: Workbook } | { status: 'error'; message: string };

/** One workbook: its reports (new, edit, place on the dashboard), its dashboard draft, publishing, and the published result. */
export function WorkbookView({ session, api, look, workbookId, onOpen, onClose }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [reports, setReports] = useState<Report[]>([]);
  const [editing, setEditing] = useState<Report | 'new' | null>(null);
  const [title, setTitle] = useState('');
  const [widgets, setWidgets] = useState<Widget[]>([]);
  const [note, setNote] = useState('');
  const [published, setPublished] = useState<{ publicId: string; version: number } | null>(null);

  useEffect(() => {
    Promise.all([api.workbook(workbookId), api.reports(workbookId)]).then(
      ([workbook, list]) => {
        setLoaded({ status: 'ready', workbook });
        setReports(list);
        setTitle(workbook.dashboardDraft?.title ?? workbook.name);
        setWidgets(workbook.dashboardDraft ? ordered(workbook.dashboardDraft) : []);
        const p = workbook.publishedDashboard;
        if (p) setPublished({ publicId: p.publicId, version: p.versionNumber ?? 1 });
      },
      (error: Error) => setLoaded({ status: 'error', message: error.message }),
    );
  }, [workbookId]);

  if (loaded.status === 'loading') return <p role="status">Loading the workbook…</p>;
  if (loaded.status === 'error')
    return (
      <div role="alert" data-page-state="not-found">
        <p>This workbook cannot be opened here: {loaded.message}</p>
        <button type="button" class="button" onClick={onClose}>
          All workbooks
        </button>
      </div>
    );
  const { workbook } = loaded;
  if (editing)
    return (
      <QueryBuilder
        session={session}
        api={api}
        look={look}
        workbookId={workbookId}
        report={editing === 'new' ? null : editing}
        onDone={(saved) => {
          if (saved) setReports((list) => [...list.filter((r) => r.id !== saved.id), saved]);
          if (saved) setNote(`Report “${saved.name}” saved.`);
          setEditing(null);
        }}
      />
    );

  const step = async (what: string, work: () => Promise<void>) => {
    setNote(`${what}…`);
    try {
      await work();
    } catch (error) {
      setNote(`${what} failed: ${(error as Error).message}`);
    }
  };
  const draft = () => ({ title: title.trim() || null, widgets });
  const saveDraft = () => step('Saving the draft', async () => (await api.saveDraft(workbookId, draft()), setNote('Draft saved.')));
  const publish = () =>
    step('Publishing', async () => {
      await api.saveDraft(workbookId, draft());
      const dashboard = await api.publish(workbookId);
      setPublished({ publicId: dashboard.publicId, version: dashboard.versionNumber ?? 1 });
      setNote(`Published (version ${dashboard.versionNumber ?? 1}).`);
    });
  const duplicate = () => step('Duplicating', async () => onOpen((await api.duplicateWorkbook(workbookId)).id));

  return (
    <article class="workbook" aria-labelledby="workbook-title" data-workbook-id={workbookId}>
      <div class="app-row app-spread">
        <h2 id="workbook-title" class="app-heading">
          {workbook.name}
        </h2>
        <div class="app-row">
          <button type="button" class="button" onClick={onClose}>
            All workbooks
          </button>
          <button type="button" class="button" data-action="duplicate-workbook" onClick={() => void duplicate()}>
            Duplicate workbook
          </button>
        </div>
      </div>
      <p role="status" class="muted app-note">
        {note}
      </p>
      <section class="app-section" aria-labelledby="reports-title">
        <h3 id="reports-title" class="widget-title">
          Reports
        </h3>
        {reports.length === 0 ? <p class="muted">No reports yet.</p> : null}
        <ul class="app-list" data-reports>
          {reports.map((r) => (
            <li key={r.id} class="app-card" data-report={r.name}>
              <span>{r.name}</span>
              <div class="app-row">
                <button type="button" class="button" aria-label={`Edit ${r.name}`} onClick={() => setEditing(r)}>
                  Edit
                </button>
                <button
                  type="button"
                  class="button"
                  data-action="place-report"
                  aria-label={`Add to dashboard: ${r.name}`}
                  onClick={() => setWidgets((list) => append(list, chartWidget(r.id)))}
                >
                  Add to dashboard
                </button>
              </div>
            </li>
          ))}
        </ul>
        <button type="button" class="button button-primary" data-action="new-report" onClick={() => setEditing('new')}>
          New report
        </button>
      </section>
      <section class="app-section" aria-labelledby="draft-title">
        <h3 id="draft-title" class="widget-title">
          Dashboard draft
        </h3>
        <DraftEditor title={title} widgets={widgets} reports={reports} onTitle={setTitle} onWidgets={setWidgets} />
        <div class="app-row">
          <button type="button" class="button" onClick={() => setWidgets((list) => append(list, textWidget('')))}>
            Add text
          </button>
          <button type="button" class="button" data-action="save-draft" onClick={() => void saveDraft()}>
            Save draft
          </button>
          <button
            type="button"
            class="button button-primary"
            data-action="publish"
            disabled={widgets.length === 0}
            onClick={() => void publish()}
          >
            Publish
          </button>
        </div>
      </section>
      {published ? (
        <section class="app-section" aria-labelledby="published-title">
          <h3 id="published-title" class="widget-title">
            Published dashboard
          </h3>
          <p class="muted">
            Public id <code data-public-id>{published.publicId}</code>: embed it at <code>/embed/dashboard/{published.publicId}</code>.
          </p>
          <PublishedView session={session} api={api} look={look} publicId={published.publicId} version={published.version} />
        </section>
      ) : null}
    </article>
  );
}
