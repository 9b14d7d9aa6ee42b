import type { ServiceContext } from '../module.js';
import { RenderError } from './errors.js';
import type { Rendering, RenderInput, ViewerInput } from './types.js';

/** First version of the interface: the browser work lands in the next commits. */
export class RenderingService {
  constructor(readonly ctx: ServiceContext) {}

  render(input: RenderInput): Promise<Rendering> {
    return Promise.reject(new RenderError(`Rendering dashboard ${input.dashboard} is not available yet`, false));
  }

  fingerprint(input: ViewerInput): Promise<string> {
    return Promise.reject(new RenderError(`Rendering dashboard ${input.dashboard} is not available yet`, false));
  }
}
