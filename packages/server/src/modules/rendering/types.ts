/**
 * Whom a dashboard is rendered for. An internal user brings their own groups and attribute values;
 * an embed user is minted exactly as generate-session would mint them (the notification's recipient
 * says their tenant, groups, attributes and security context).
 */
export type Viewer =
  | { kind: 'user'; userId: number }
  | {
      kind: 'embed';
      /** Defaults to the account's own tenant, as generate-session's. */
      embedTenantName?: string;
      externalId: string;
      groups?: string[];
      userAttributes?: { name: string; value?: string | number | string[] | number[] | null }[];
      securityContext?: Record<string, unknown>;
    };

export interface ViewerInput {
  accountId: number;
  deploymentId: number;
  /** The published dashboard's publicId, as the embed page's URL names it (`/embed/dashboard/<publicId>`). */
  dashboard: string;
  viewer: Viewer;
}

export type RenderFormat = 'png' | 'pdf';

export interface RenderInput extends ViewerInput {
  formats: RenderFormat[];
}

/** What one widget drew: its title and the rows of its table (a KPI is one row of one cell). */
export interface RenderedWidget {
  id: string;
  rows: string[][];
}

export interface Rendering {
  png?: Buffer;
  pdf?: Buffer;
  /** SHA-256 of `widgets`: two renderings that drew the same data have the same one. */
  dataFingerprint: string;
  /** The dashboard for a person to open (the server's own URL of it), for the message's link. */
  link: string;
  /** The data each widget drew, in the page's reading order, so tests and callers compare data, not pixels. */
  widgets: RenderedWidget[];
}
