import type { Formatter } from '../lib/format';
import type { ChartModel, Pick } from './chart-model';

/**
 * The values of a chart as a table: shown as the chart itself for a `table` report, and visually
 * hidden beside every drawn chart so assistive technology reads what the picture shows.
 */
export function DataTable(props: { model: ChartModel; format: Formatter; caption: string; hidden?: boolean; onPick?: Pick }) {
  const { model, format, caption, hidden, onPick } = props;
  return (
    <div class={hidden ? 'visually-hidden' : 'table-scroll'}>
      <table class="data-table">
        <caption class={hidden ? undefined : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {model.columns.map((c) => (
              <th scope="col" key={c.key} class={c.type === 'number' ? 'num' : undefined}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {model.rows.map((row, i) => (
            <tr key={i}>
              {model.columns.map((c) => (
                <td
                  key={c.key}
                  class={c.type === 'number' ? 'num' : undefined}
                  data-member={onPick ? c.member : undefined}
                  onClick={onPick ? () => onPick(row, c) : undefined}
                >
                  {format.value(row[c.key], c.type, c.granularity)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
