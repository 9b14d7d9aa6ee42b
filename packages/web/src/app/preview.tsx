import { useEffect, useState } from 'preact/hooks';
import type { Palette } from '../charts/chart-options';
import { describe, modelOf, type ChartModel, type ChartType } from '../charts/chart-model';
import { ChartView } from '../charts/chart-view';
import { load, type CubeQuery } from '../lib/data-api';
import type { Formatter } from '../lib/format';
import type { EmbedSession } from '../session/session';

type State =
  { status: 'idle' } | { status: 'loading'; waits: number } | { status: 'ready'; model: ChartModel } | { status: 'error'; message: string };

/** Waits this long after the last click before asking the data API, so a burst of clicks runs one query. */
const SETTLE_MS = 300;

/**
 * The report as it will look, drawn with the dashboard's own chart code from a live query as this
 * user (the rows their policies allow), redrawn as the builder changes.
 */
export function Preview(props: { session: EmbedSession; query: CubeQuery | null; type: ChartType; format: Formatter; palette: Palette }) {
  const { session, query, type, format, palette } = props;
  const [state, setState] = useState<State>({ status: 'idle' });
  const key = JSON.stringify(query);
  useEffect(() => {
    if (!query) {
      setState({ status: 'idle' });
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      setState({ status: 'loading', waits: 0 });
      load(session, query, (waits) => setState({ status: 'loading', waits }), abort.signal).then(
        (result) => setState({ status: 'ready', model: modelOf(query, result) }),
        (error: Error) => !abort.signal.aborted && setState({ status: 'error', message: error.message }),
      );
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [key]);

  let body;
  if (state.status === 'idle') body = <p class="muted">Pick a measure or a dimension to see a preview.</p>;
  else if (state.status === 'loading')
    body = (
      <div class="state state-loading" role="status" aria-live="polite">
        <span class="spinner" aria-hidden="true" />
        {state.waits > 0 ? `Preparing the data… (still working, check ${state.waits})` : 'Loading…'}
      </div>
    );
  else if (state.status === 'error')
    body = (
      <div class="state state-error" role="alert">
        Could not run this query: {state.message}
      </div>
    );
  else if (state.model.rows.length === 0) body = <div class="state state-empty">No data for this query.</div>;
  else
    body = (
      <ChartView model={state.model} type={type} format={format} palette={palette} description={describe(state.model, type, format)} />
    );
  return (
    <section class="widget qb-preview" aria-labelledby="qb-preview-title" data-preview-state={state.status}>
      <h3 id="qb-preview-title" class="widget-title">
        Preview
      </h3>
      {body}
    </section>
  );
}
