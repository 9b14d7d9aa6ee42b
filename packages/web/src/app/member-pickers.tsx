import { GRANULARITIES, OPERATORS, takesValues, type BuilderFilter, type MetaMember, type Operator } from './query-model';

const label = (m: MetaMember) => m.shortTitle || m.title || m.name;

/** A group of checkboxes, one per member: the measures, or the dimensions, of the view. */
export function MemberChecks(props: {
  legend: string;
  name: string;
  members: MetaMember[];
  chosen: string[];
  onChange(chosen: string[]): void;
}) {
  const { legend, name, members, chosen, onChange } = props;
  const toggle = (member: string, on: boolean) => onChange(on ? [...chosen, member] : chosen.filter((m) => m !== member));
  return (
    <fieldset class="qb-group" data-picker={name}>
      <legend class="control-label">{legend}</legend>
      {members.length === 0 ? <p class="muted">None in this view.</p> : null}
      <div class="qb-checks">
        {members.map((m) => (
          <label key={m.name} class="qb-check">
            <input
              type="checkbox"
              value={m.name}
              checked={chosen.includes(m.name)}
              onChange={(e) => toggle(m.name, e.currentTarget.checked)}
            />
            {label(m)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The time dimension the report is grouped by, and its grain. */
export function TimePicker(props: {
  members: MetaMember[];
  member: string;
  granularity: string;
  onChange(member: string, granularity: string): void;
}) {
  const { members, member, granularity, onChange } = props;
  return (
    <fieldset class="qb-group qb-row">
      <legend class="control-label">Time</legend>
      <label class="qb-field">
        <span>Time dimension</span>
        <select id="qb-time" class="control" value={member} onChange={(e) => onChange(e.currentTarget.value, granularity)}>
          <option value="">None</option>
          {members.map((m) => (
            <option key={m.name} value={m.name}>
              {label(m)}
            </option>
          ))}
        </select>
      </label>
      <label class="qb-field">
        <span>Time grain</span>
        <select
          id="qb-grain"
          class="control"
          value={granularity}
          disabled={!member}
          onChange={(e) => onChange(member, e.currentTarget.value)}
        >
          {GRANULARITIES.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}

/** Filters: member, operator and comma-separated values, one row each. */
export function FilterRows(props: { members: MetaMember[]; filters: BuilderFilter[]; onChange(filters: BuilderFilter[]): void }) {
  const { members, filters, onChange } = props;
  const set = (i: number, patch: Partial<BuilderFilter>) => onChange(filters.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <fieldset class="qb-group">
      <legend class="control-label">Filters</legend>
      {filters.map((f, i) => (
        <div key={i} class="qb-row qb-filter" data-filter-row={i}>
          <label class="qb-field">
            <span>Member</span>
            <select class="control" value={f.member} onChange={(e) => set(i, { member: e.currentTarget.value })}>
              {members.map((m) => (
                <option key={m.name} value={m.name}>
                  {label(m)}
                </option>
              ))}
            </select>
          </label>
          <label class="qb-field">
            <span>Operator</span>
            <select class="control" value={f.operator} onChange={(e) => set(i, { operator: e.currentTarget.value as Operator })}>
              {OPERATORS.map(([op, words]) => (
                <option key={op} value={op}>
                  {words}
                </option>
              ))}
            </select>
          </label>
          {takesValues(f.operator) ? (
            <label class="qb-field">
              <span>Values (comma-separated)</span>
              <input class="control" value={f.values} onInput={(e) => set(i, { values: e.currentTarget.value })} />
            </label>
          ) : null}
          <button type="button" class="button" onClick={() => onChange(filters.filter((_, j) => j !== i))}>
            Remove filter
          </button>
        </div>
      ))}
      <button
        type="button"
        class="button"
        data-action="add-filter"
        disabled={members.length === 0}
        onClick={() => onChange([...filters, { member: members[0]?.name ?? '', operator: 'equals', values: '' }])}
      >
        Add filter
      </button>
    </fieldset>
  );
}
