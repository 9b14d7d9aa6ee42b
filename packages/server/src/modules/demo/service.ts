import { setTimeout as sleep } from 'node:timers/promises';
import { sampleModelFiles, writeSample } from '@plinth/semantic';
import type { Services } from '../module.js';
import { createDemoDashboard, DEMO_DASHBOARD_TITLE } from './dashboard.js';
import { demoModelFiles } from './embedding-view.js';

/** The demo deployment's name, as `plinth deployments list` shows it. */
export const DEMO_NAME = 'Demo';

/**
 * Line items of the demo's sample dataset (with 25,000 orders, 2,500 customers and 50 products):
 * enough for the sample dashboards to show real shapes, small enough that DuckDB writes it in
 * well under a second, so the first start stays quick.
 */
export const DEMO_LINE_ITEMS = 100_000;

export interface DemoOptions {
  lineItems?: number;
  /** The longest the first start waits for the demo's build before going on without it. */
  waitMs?: number;
  /** Pause between looks at the build while waiting. */
  pollMs?: number;
}

export interface DemoOutcome {
  deploymentId: number;
  deploymentUrl: string;
  buildId: number | null;
  status: 'built' | 'failed' | 'cancelled' | 'building';
  /** The published, embeddable dashboard over the demo's my_sales view, once the build succeeded. */
  dashboardPublicId?: string;
  /** Why the build did not succeed, for the log. */
  errors: string[];
}

/**
 * The first start's demo (issue 14, first start): a deployment with the engine's sample model on
 * its deploy branch and the sample dataset in its embedded DuckDB, built, so that a newcomer's
 * first `deployments token` and `load` work at once. The data API reads the DuckDB file read-only,
 * in every process sharing the data dir, so the data is written as any writer of it does: into a
 * copy renamed into place (Warehouses.write). The data goes in before the model is committed, so
 * the build that makes the model servable never precedes the rows it reads. The build runs on the job runner, which must be started.
 */
export async function createDemoDeployment(
  services: Services,
  accountId: number,
  baseUrl: string,
  options: DemoOptions = {},
): Promise<DemoOutcome> {
  const { id: deploymentId, deploymentUrl } = await services.deployments.create(accountId, { name: DEMO_NAME }, baseUrl);
  const config = await services.deploymentVariables.warehouseConfig(accountId, deploymentId);
  await services.dataApi.warehouses.write(
    accountId,
    deploymentId,
    (warehouse) => writeSample(warehouse, { lineItems: options.lineItems ?? DEMO_LINE_ITEMS }),
    config,
  );

  const branch = await services.dataModel.ensureDefault(accountId, deploymentId);
  const files = demoModelFiles(sampleModelFiles());
  const hashes = await services.dataModel.storeBlobs(accountId, Object.values(files));
  const entries = Object.fromEntries(Object.keys(files).map((path, i) => [path, hashes[i]!]));
  const { buildId } = await services.dataModel.commitTree(null, branch, {
    entries,
    baseCommitId: Number(branch.head_commit_id),
    message: 'The sample model',
    build: 'deploy',
  });
  if (buildId === null) return { deploymentId, deploymentUrl, buildId, status: 'failed', errors: ['no build was queued'] };
  const built = await waitForBuild(services, accountId, buildId, options);
  if (built.status !== 'built') return { deploymentId, deploymentUrl, buildId, ...built };
  // Reports are checked against the served model, so the dashboard waits for the build.
  const dashboard = await createDemoDashboard(services, accountId, deploymentId);
  return { deploymentId, deploymentUrl, buildId, ...built, dashboardPublicId: dashboard.publicId };
}

async function waitForBuild(services: Services, accountId: number, buildId: number, options: DemoOptions) {
  const deadline = Date.now() + (options.waitMs ?? 120_000);
  for (;;) {
    const build = await services.builds.byId(accountId, buildId);
    const status = build?.status ?? 'failed';
    if (status !== 'building' || Date.now() >= deadline) {
      return {
        status: status === 'dev_mode' ? ('failed' as const) : status,
        errors: (build?.errors ?? []).map((e) => (e.fileName ? `${e.fileName}: ${e.message}` : e.message)),
      };
    }
    await sleep(options.pollMs ?? 100);
  }
}

/** What the log and the first start's output need to say about the demo. */
export interface DemoLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * The demo on the start that created the account, unless PLINTH_DEMO is off. A start that did not
 * create the account never makes one: the demo is not repeated, and one deleted stays deleted.
 * Nothing here stops the server: a demo that fails is logged and the server serves without it.
 * Answers the line to print after the ready line, if any.
 */
export async function demoOnFirstStart(
  services: Services,
  start: { created: boolean; tenant: string; baseUrl: string; enabled: boolean },
  log: DemoLog,
  options: DemoOptions = {},
): Promise<string | undefined> {
  if (!start.created || !start.enabled) return undefined;
  try {
    const account = await services.accounts.findByName(start.tenant);
    if (!account) return undefined;
    const demo = await createDemoDeployment(services, account.id, start.baseUrl, options);
    if (demo.status !== 'built') {
      log.error(
        { deploymentId: demo.deploymentId, buildId: demo.buildId, status: demo.status, errors: demo.errors },
        'the demo deployment is not built',
      );
      return undefined;
    }
    log.info({ deploymentId: demo.deploymentId, buildId: demo.buildId }, 'demo deployment built');
    const served = `Demo deployment ${demo.deploymentId} ("${DEMO_NAME}") serves the sample data at ${demo.deploymentUrl}/cubejs-api/v1 (token: plinth deployments token ${demo.deploymentId}).`;
    return demo.dashboardPublicId
      ? `${served}\nIts dashboard "${DEMO_DASHBOARD_TITLE}" is published for embedding: ${start.baseUrl}/embed/dashboard/${demo.dashboardPublicId}?session=<sessionId>`
      : served;
  } catch (error) {
    log.error({ err: error }, 'the demo deployment could not be created');
    return undefined;
  }
}
