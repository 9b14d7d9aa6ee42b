import { useEffect, useState } from 'preact/hooks';
import type { CreatorApi, Workbook } from './api';

type Listed = { status: 'loading' } | { status: 'ready'; workbooks: Workbook[] } | { status: 'error'; message: string };

/** The embed tenant's workbooks: create (a name), open, duplicate, delete (after a confirmation). */
export function WorkbookList({ api, onOpen }: { api: CreatorApi; onOpen(id: number): void }) {
  const [listed, setListed] = useState<Listed>({ status: 'loading' });
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState<number | null>(null);
  const refresh = () =>
    api.workbooks().then(
      (workbooks) => setListed({ status: 'ready', workbooks }),
      (error: Error) => setListed({ status: 'error', message: error.message }),
    );
  useEffect(() => void refresh(), []);

  const act = async (what: string, work: () => Promise<unknown>) => {
    setNote(`${what}…`);
    try {
      await work();
      setNote(`${what}: done.`);
      await refresh();
    } catch (error) {
      setNote(`${what} failed: ${(error as Error).message}`);
    }
  };
  async function create(event: Event) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setNote('Give the workbook a name.');
    setNote('Creating…');
    try {
      const workbook = await api.createWorkbook(trimmed);
      onOpen(workbook.id);
    } catch (error) {
      setNote(`Could not create the workbook: ${(error as Error).message}`);
    }
  }

  return (
    <section aria-labelledby="workbooks-title">
      <h2 id="workbooks-title" class="app-heading">
        Your workbooks
      </h2>
      <form class="app-inline-form" onSubmit={(e) => void create(e)}>
        <label for="new-workbook" class="control-label">
          New workbook name
        </label>
        <div class="app-row">
          <input id="new-workbook" class="control" value={name} maxLength={255} onInput={(e) => setName(e.currentTarget.value)} />
          <button type="submit" class="button button-primary" data-action="create-workbook">
            Create
          </button>
        </div>
      </form>
      <p role="status" class="muted app-note">
        {note}
      </p>
      {listed.status === 'loading' ? <p role="status">Loading…</p> : null}
      {listed.status === 'error' ? <p role="alert">Could not list the workbooks: {listed.message}</p> : null}
      {listed.status === 'ready' && listed.workbooks.length === 0 ? <p class="muted">No workbooks yet: create one above.</p> : null}
      {listed.status === 'ready' ? (
        <ul class="app-list" data-workbooks>
          {listed.workbooks.map((w) => (
            <li key={w.id} class="app-card" data-workbook={w.name}>
              <button type="button" class="link-button app-card-title" onClick={() => onOpen(w.id)}>
                {w.name}
              </button>
              <span class="muted">{w.publishedDashboard ? 'Published' : 'Not published'}</span>
              <div class="app-row">
                <button
                  type="button"
                  class="button"
                  data-action="duplicate"
                  aria-label={`Duplicate ${w.name}`}
                  onClick={() => void act('Duplicating', () => api.duplicateWorkbook(w.id))}
                >
                  Duplicate
                </button>
                {confirming === w.id ? (
                  <>
                    <button
                      type="button"
                      class="button button-danger"
                      data-action="confirm-delete"
                      onClick={() => {
                        setConfirming(null);
                        void act('Deleting', () => api.deleteWorkbook(w.id));
                      }}
                    >
                      Delete “{w.name}” for good
                    </button>
                    <button type="button" class="button" onClick={() => setConfirming(null)}>
                      Keep it
                    </button>
                  </>
                ) : (
                  <button
                    type="button"
                    class="button"
                    data-action="delete"
                    aria-label={`Delete ${w.name}`}
                    onClick={() => setConfirming(w.id)}
                  >
                    Delete
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
