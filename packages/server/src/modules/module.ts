import type { TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { PlinthApp } from '../app.js';
import type { JobKind } from '../jobs/kind.js';

/** What a domain module contributes to the app: its shared schemas and its routes. */
export interface PlinthModule {
  name: string;
  /** Component schemas with `$id`, registered at the root so any route and the spec can refer to them. */
  schemas?: TSchema[];
  routes: FastifyPluginAsync;
  /** Wiring that needs the finished app, e.g. registering a credential verifier. */
  onReady?: (app: PlinthApp) => void;
  /** Kinds of background work the module's handlers run (see jobs/kind.ts); one runner per process runs them all. */
  jobs?: JobKind[];
}
