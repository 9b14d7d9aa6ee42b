import type { Services } from '../module.js';
import type { EmailInput, EmailSent, SlackInput, SlackPosted } from './types.js';

/**
 * What other modules may use of delivery: an e-mail through the operator's SMTP server
 * (PLINTH_SMTP_URL) and a Slack message with an uploaded image through the account's bot token.
 * Both fail only with a DeliveryError, whose `retryable` says whether trying again may help; a
 * failing mail server or Slack never ends the process.
 */
export type { EmailInput, EmailSent, SlackInput, SlackPosted } from './types.js';
export { INLINE_PNG_CID } from './types.js';
export { DeliveryError } from './errors.js';

export function sendEmail(services: Pick<Services, 'delivery'>, input: EmailInput): Promise<EmailSent> {
  return services.delivery.sendEmail(input);
}

export function postToSlack(services: Pick<Services, 'delivery'>, input: SlackInput): Promise<SlackPosted> {
  return services.delivery.postToSlack(input);
}
