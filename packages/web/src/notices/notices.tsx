import { useState } from 'preact/hooks';
import type { ParamProblem } from '../lib/params';

/**
 * What the page could not use of its URL (a bad `f_` preset, an unknown theme), told to the viewer
 * rather than dropped: one small notice per parameter, each dismissible.
 */
export function Notices({ problems }: { problems: ParamProblem[] }) {
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const shown = problems.filter((p) => !dismissed.has(p.parameter));
  if (shown.length === 0) return null;
  return (
    <div class="notices" role="status" aria-live="polite">
      {shown.map((p) => (
        <p key={p.parameter} class="notice" data-notice={p.parameter}>
          <span>
            <code>{p.parameter}</code> {p.message}.
          </span>
          <button
            type="button"
            class="icon-button"
            aria-label={`Dismiss the notice about ${p.parameter}`}
            onClick={() => setDismissed(new Set([...dismissed, p.parameter]))}
          >
            <span aria-hidden="true">×</span>
          </button>
        </p>
      ))}
    </div>
  );
}
