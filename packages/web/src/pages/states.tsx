import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { DashboardErrorCode } from '../dashboard/events';
import { host } from '../lib/host';

/**
 * A whole-page message: the link expired, something failed, or nothing is here. One that stands
 * for an error (`code`) also tells the host page, once, with the same words the viewer reads.
 */
export function PageMessage({
  title,
  children,
  kind,
  code,
  message,
}: {
  title: string;
  kind: string;
  code?: DashboardErrorCode;
  message?: string;
  children?: ComponentChildren;
}) {
  useEffect(() => {
    if (code) host.error({ code, message: message ?? title });
  }, [code]);
  return (
    <main class={`page-message page-${kind}`} data-page-state={kind}>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

export const Expired = () => (
  <PageMessage title="This link has expired" kind="expired" code="session_expired">
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
  <PageMessage title="Something went wrong" kind="error" code="load_failed" message={message}>
    <p>{message}</p>
  </PageMessage>
);
