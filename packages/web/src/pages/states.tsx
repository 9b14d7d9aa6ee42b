import type { ComponentChildren } from 'preact';

/** A whole-page message: the link expired, something failed, or nothing is here. */
export function PageMessage({ title, children, kind }: { title: string; kind: string; children?: ComponentChildren }) {
  return (
    <main class={`page-message page-${kind}`} data-page-state={kind}>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

export const Expired = () => (
  <PageMessage title="This link has expired" kind="expired">
    <p>Embedded links work once and for a short time. Reload the page that showed this dashboard to get a new link.</p>
  </PageMessage>
);

export const Opening = () => (
  <main class="page-message" data-page-state="opening">
    <div role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> Loading…
    </div>
  </main>
);

export const Failed = ({ message }: { message: string }) => (
  <PageMessage title="Something went wrong" kind="error">
    <p>{message}</p>
  </PageMessage>
);
