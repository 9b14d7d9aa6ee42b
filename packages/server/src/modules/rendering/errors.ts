/**
 * A dashboard that could not be rendered. `retryable`: the browser crashed, was missing a moment
 * or timed out, so the same rendering may succeed later; otherwise the input itself is refused
 * (no such dashboard, embedding off, an unknown user) and trying again changes nothing.
 */
export class RenderError extends Error {
  override name = 'RenderError';
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
