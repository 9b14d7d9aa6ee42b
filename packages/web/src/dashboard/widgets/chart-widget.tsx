import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { chartTypeOf, describe, modelOf, type ChartModel } from '../../charts/chart-model';
import { ChartView } from '../../charts/chart-view';
import { load } from '../../lib/data-api';
import { useDashboard } from '../context';
import { filteredQuery } from '../filters';
import { queryOf, stringOf, type Widget } from '../model';
import { WidgetFrame } from './widget-frame';

type State = { status: 'loading'; waits: number } | { status: 'ready'; model: ChartModel } | { status: 'error'; message: string };

/**
 * A report on the dashboard: its snapshot's query, with the filters that target this widget, run
 * on the data API as the embed user. Only this widget reloads when its own query changes.
 */
export function ChartWidget({ widget }: { widget: Widget }) {
  const { dashboard, session, filters, grain, generation, format, palette, register, settled, events } = useDashboard();
  const reportId = Number(widget.config?.reportId);
  const snapshot = dashboard.reportSnapshots.find((s) => s.reportId === reportId);
  const base = queryOf(snapshot);
  const query = base ? filteredQuery(base, widget.id, filters, grain) : null;
  const key = JSON.stringify(query);
  const [state, setState] = useState<State>({ status: 'loading', waits: 0 });
  const [attempt, setAttempt] = useState(0);
  const ran = useRef<string | null>(null);

  useEffect(() => register(widget.id), []);
  // After ChartView's own effect (children's run first): the chart is drawn by now, or failed.
  useEffect(() => {
    if (state.status !== 'loading') settled(widget.id);
  }, [state]);

  useEffect(() => {
    if (!query) {
      setState({
        status: 'error',
        message: snapshot ? 'This report has no query the dashboard can run.' : 'This chart’s report is missing.',
      });
      return;
    }
    const abort = new AbortController();
    // The same query again (the host's refresh): the chart stays on screen until the new rows come.
    const again = ran.current === key;
    ran.current = key;
    setState((current) => (again && current.status === 'ready' ? current : { status: 'loading', waits: 0 }));
    load(session, query, (waits) => setState({ status: 'loading', waits }), abort.signal).then(
      (result) => setState({ status: 'ready', model: modelOf(query, result) }),
      (error: Error) => {
        if (abort.signal.aborted) return;
        setState({ status: 'error', message: error.message });
        events.error({ publicId: dashboard.publicId, code: 'query_failed', widgetId: widget.id, message: error.message });
      },
    );
    return () => abort.abort();
  }, [key, attempt, generation]);

  const title = stringOf(widget.config?.title) ?? snapshot?.title ?? snapshot?.name ?? 'Chart';
  const type = useMemo(() => chartTypeOf(snapshot?.meta, base ?? {}), [snapshot, base]);
  let body;
  if (state.status === 'loading') {
    body = (
      <div class="state state-loading" role="status" aria-live="polite">
        <span class="spinner" aria-hidden="true" />
        {state.waits > 0 ? `Preparing the data… (still working, check ${state.waits})` : 'Loading…'}
      </div>
    );
  } else if (state.status === 'error') {
    body = (
      <div class="state state-error" role="alert">
        <p>Could not load this chart: {state.message}</p>
        <button type="button" class="button" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </div>
    );
  } else if (state.model.rows.length === 0) {
    body = <div class="state state-empty">No data for the current filters.</div>;
  } else {
    body = (
      <ChartView
        model={state.model}
        type={type}
        format={format}
        palette={palette}
        description={`${title}. ${describe(state.model, type, format)}`}
        onPick={(row, column) =>
          query &&
          events.drillDown({ publicId: dashboard.publicId, widgetId: widget.id, member: column.member, value: row[column.key], query })
        }
      />
    );
  }
  return (
    <WidgetFrame widget={widget} title={title} kind="chart" busy={state.status === 'loading'}>
      {body}
    </WidgetFrame>
  );
}
