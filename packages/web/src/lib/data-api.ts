import type { EmbedSession } from '../session/session';
import { apiPost } from './api';

export type CubeQuery = Record<string, unknown> & {
  measures?: string[];
  dimensions?: string[];
  timeDimensions?: { dimension: string; granularity?: string; dateRange?: unknown }[];
  filters?: unknown[];
};

interface MemberAnnotation {
  title?: string;
  shortTitle?: string;
  type?: string;
}
export interface LoadResult {
  data: Record<string, unknown>[];
  annotation: {
    measures: Record<string, MemberAnnotation>;
    dimensions: Record<string, MemberAnnotation>;
    timeDimensions: Record<string, MemberAnnotation>;
  };
}

interface LoadAnswer extends Partial<LoadResult> {
  error?: string;
  results?: LoadResult[];
}

const FIRST_WAIT_MS = 250;
const MAX_WAIT_MS = 4000;
const MAX_TRIES = 30;

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * Runs a query on the data API as the embed user (`/d/{deploymentId}/cubejs-api/v1/load`), so the
 * rows are those the user's groups, attributes and security context allow. While the answer is
 * `Continue wait` it asks again with a growing pause, telling `onWait` how many times it waited.
 */
export async function load(
  session: EmbedSession,
  query: CubeQuery,
  onWait?: (tries: number) => void,
  signal?: AbortSignal,
): Promise<LoadResult> {
  const path = `/d/${session.claims.deploymentId}/cubejs-api/v1/load`;
  let wait = FIRST_WAIT_MS;
  for (let tries = 1; ; tries++) {
    const answer = await apiPost<LoadAnswer>(session, path, { query }, signal);
    if (answer.error !== 'Continue wait') {
      const result = answer.results?.[0] ?? answer;
      return { data: result.data ?? [], annotation: result.annotation ?? { measures: {}, dimensions: {}, timeDimensions: {} } };
    }
    if (tries >= MAX_TRIES) throw new Error('The data is still being prepared. Try again in a minute.');
    onWait?.(tries);
    await pause(wait, signal);
    wait = Math.min(wait * 2, MAX_WAIT_MS);
  }
}
