import { useEffect, useMemo, useState } from 'preact/hooks';
import { CHART_TYPES, chartTypeOf, type ChartType } from '../charts/chart-model';
import { apiGet } from '../lib/api';
import type { EmbedSession } from '../session/session';
import { reportQuery, type CreatorApi, type Report } from './api';
import type { AppLook } from './app-screen';
import { FilterRows, MemberChecks, TimePicker } from './member-pickers';
import { Preview } from './preview';
import { emptyState, fromQuery, queryables, runnable, toQuery, type BuilderState, type MetaCube } from './query-model';

type Meta = { status: 'loading' } | { status: 'ready'; cubes: MetaCube[] } | { status: 'error'; message: string };

const CHART_NAMES: Record<ChartType, string> = { line: 'Line', bar: 'Bar', area: 'Area', pie: 'Pie', table: 'Table', number: 'Number' };

interface Props {
  session: EmbedSession;
  api: CreatorApi;
  look: AppLook;
  workbookId: number;
  /** The report to edit; none: a new one. */
  report: Report | null;
  onDone(saved: Report | null): void;
}

/**
 * The point-and-click query builder: a view of the model (as /meta shows it to this user), its
 * measures, dimensions, a time grain and filters, the chart type, a live preview, and saving it
 * as a report of the workbook.
 */
export function QueryBuilder({ session, api, look, workbookId, report, onDone }: Props) {
  const [meta, setMeta] = useState<Meta>({ status: 'loading' });
  const saved = useMemo(() => (report ? reportQuery(report) : null), [report]);
  const [state, setState] = useState<BuilderState>(() => (saved ? fromQuery(saved) : emptyState()));
  const [chartType, setChartType] = useState<ChartType>(() => (saved ? chartTypeOf(report?.meta, saved) : 'bar'));
  const [name, setName] = useState(report?.name ?? '');
  const [saving, setSaving] = useState<string | null>(null);

  useEffect(() => {
    apiGet<{ cubes: MetaCube[] }>(session, `/d/${session.claims.deploymentId}/cubejs-api/v1/meta`).then(
      ({ cubes }) => {
        const views = queryables(cubes);
        setMeta({ status: 'ready', cubes: views });
        setState((s) => (s.view && views.some((v) => v.name === s.view) ? s : emptyState(views[0]?.name ?? '')));
      },
      (error: Error) => setMeta({ status: 'error', message: error.message }),
    );
  }, []);

  if (meta.status === 'loading')
    return (
      <div class="state state-loading" role="status">
        <span class="spinner" aria-hidden="true" /> Loading the model…
      </div>
    );
  if (meta.status === 'error')
    return (
      <div class="state state-error" role="alert">
        Could not read the model: {meta.message}
      </div>
    );
  const view = meta.cubes.find((c) => c.name === state.view);
  const times = view?.dimensions.filter((d) => d.type === 'time') ?? [];
  const others = view?.dimensions.filter((d) => d.type !== 'time') ?? [];
  const query = runnable(state) ? toQuery(state) : null;
  const update = (patch: Partial<BuilderState>) => setState((s) => ({ ...s, ...patch }));

  async function save(event: Event) {
    event.preventDefault();
    if (!query) return setSaving('Pick at least one measure or dimension.');
    const input = { name: name.trim() || 'Untitled report', query, chartType };
    setSaving('Saving…');
    try {
      onDone(report ? await api.updateReport(report.id, input) : await api.createReport(workbookId, input));
    } catch (error) {
      setSaving(`Could not save the report: ${(error as Error).message}`);
    }
  }

  return (
    <form class="qb" onSubmit={(e) => void save(e)} aria-labelledby="qb-title">
      <h2 id="qb-title" class="app-heading">
        {report ? `Edit report: ${report.name}` : 'New report'}
      </h2>
      <div class="qb-layout">
        <div class="qb-controls">
          <label class="qb-field">
            <span class="control-label">Report name</span>
            <input id="qb-name" class="control" value={name} maxLength={255} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label class="qb-field">
            <span class="control-label">View</span>
            <select id="qb-view" class="control" value={state.view} onChange={(e) => setState(emptyState(e.currentTarget.value))}>
              {meta.cubes.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.title || c.name}
                </option>
              ))}
            </select>
          </label>
          {meta.cubes.length === 0 ? <p class="muted">There is no view you may query.</p> : null}
          <MemberChecks
            legend="Measures"
            name="measures"
            members={view?.measures ?? []}
            chosen={state.measures}
            onChange={(measures) => update({ measures })}
          />
          <MemberChecks
            legend="Dimensions"
            name="dimensions"
            members={others}
            chosen={state.dimensions}
            onChange={(dimensions) => update({ dimensions })}
          />
          <TimePicker
            members={times}
            member={state.timeDimension}
            granularity={state.granularity}
            onChange={(timeDimension, granularity) => update({ timeDimension, granularity })}
          />
          <FilterRows
            members={[...(view?.dimensions ?? []), ...(view?.measures ?? [])]}
            filters={state.filters}
            onChange={(filters) => update({ filters })}
          />
          <fieldset class="qb-group">
            <legend class="control-label">Chart type</legend>
            <div class="qb-checks">
              {CHART_TYPES.map((t) => (
                <label key={t} class="qb-check">
                  <input type="radio" name="chart-type" value={t} checked={chartType === t} onChange={() => setChartType(t)} />
                  {CHART_NAMES[t]}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        <Preview session={session} query={query} type={chartType} format={look.format} palette={look.palette} />
      </div>
      <div class="app-actions">
        <button type="submit" class="button button-primary" data-action="save-report" disabled={saving === 'Saving…'}>
          Save report
        </button>
        <button type="button" class="button" onClick={() => onDone(null)}>
          Cancel
        </button>
        {saving ? (
          <span role="status" class="muted">
            {saving}
          </span>
        ) : null}
      </div>
    </form>
  );
}
