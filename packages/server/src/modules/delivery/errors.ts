/**
 * A message that was not delivered. `retryable`: the mail server or Slack was down, refused for a
 * while or timed out, so the same message may go through later; otherwise it never will as it
 * stands (no mail server configured, egress refused, a bad Slack token, an unknown channel).
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
