import { useMemo } from 'preact/hooks';
import { CHART_TYPES, describe, modelOf, type ChartType } from '../charts/chart-model';
import type { Palette } from '../charts/chart-options';
import { ChartView } from '../charts/chart-view';
import { DataTable } from '../charts/data-table';
import type { CubeQuery, LoadResult } from '../lib/data-api';
import type { Formatter } from '../lib/format';
import type { ToolOutput } from './stream';

const TOOL_NAMES: Record<string, string> = { cubeQuery: 'Querying the data', cubeMeta: 'Reading the data model' };

/**
 * A tool call of the assistant: its progress while it runs, then for a query its rows as a chart
 * (with the page's accessible table) and as a table, or why the query was refused.
 */
export function ToolCall({
  name,
  output,
  done,
  format,
  palette,
}: {
  name: string;
  output?: ToolOutput;
  done: boolean;
  format: Formatter;
  palette: Palette;
}) {
  const label = TOOL_NAMES[name] ?? `Running ${name}`;
  if (!done) {
    return (
      <p class="chat-tool" data-chat-tool={name} data-state="running">
        <span class="spinner" aria-hidden="true" /> {label}…
      </p>
    );
  }
  if (output?.error) {
    return (
      <p class="chat-tool muted" data-chat-tool={name} data-state="refused">
        {label}: {output.error}
      </p>
    );
  }
  if (name !== 'cubeQuery' || !output?.query || !output.data) {
    return (
      <p class="chat-tool muted" data-chat-tool={name} data-state="done">
        {label}: done.
      </p>
    );
  }
  return <QueryResult output={output} format={format} palette={palette} />;
}

function QueryResult({ output, format, palette }: { output: ToolOutput; format: Formatter; palette: Palette }) {
  const query = output.query as CubeQuery;
  const model = useMemo(
    () => modelOf(query, { data: output.data ?? [], annotation: (output.annotation ?? {}) as LoadResult['annotation'] } as LoadResult),
    [output],
  );
  const named = output.chart?.type;
  const type: ChartType = named && (CHART_TYPES as readonly string[]).includes(named) ? (named as ChartType) : 'table';
  const description = describe(model, type, format);
  const drawn = type !== 'table';
  const more = output.totalRows !== undefined && output.totalRows > model.rows.length;
  return (
    <section class="chat-result" data-chat-tool="cubeQuery" data-state="done" aria-label={output.title ?? 'Query result'}>
      {output.title ? <h3 class="chat-result-title">{output.title}</h3> : null}
      {model.rows.length === 0 ? (
        <p class="muted">No rows.</p>
      ) : (
        <>
          <ChartView model={model} type={type} format={format} description={description} palette={palette} />
          {drawn ? (
            <details class="chat-rows">
              <summary>Show the {model.rows.length === 1 ? 'row' : `${model.rows.length} rows`} as a table</summary>
              <DataTable model={model} format={format} caption={output.title ?? 'Query result'} />
            </details>
          ) : null}
        </>
      )}
      {more ? (
        <p class="muted">
          The first {model.rows.length} of {output.totalRows} rows.
        </p>
      ) : null}
    </section>
  );
}
