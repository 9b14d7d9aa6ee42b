import type { ServiceContext } from '../module.js';
import { sendEmail } from './email.js';
import { DeliveryError } from './errors.js';
import { postToSlack } from './slack.js';
import { SlackTokenStore } from './slack-token.js';
import type { EmailInput, EmailSent, SlackInput, SlackPosted } from './types.js';

/** E-mail through the operator's mail server, Slack through the account's bot token; every failure a DeliveryError. */
export class DeliveryService {
  readonly slackTokens: SlackTokenStore;

  constructor(private readonly ctx: Pick<ServiceContext, 'db' | 'secrets' | 'config' | 'egress'>) {
    this.slackTokens = new SlackTokenStore(ctx.db, ctx.secrets);
  }

  sendEmail(input: EmailInput): Promise<EmailSent> {
    return sendEmail(this.ctx.config.delivery, this.ctx.egress, input);
  }

  async postToSlack(input: SlackInput): Promise<SlackPosted> {
    const token = await this.slackTokens.token(input.accountId);
    if (!token) {
      throw new DeliveryError(
        'This account has no Slack bot token: an admin sets one (PUT /api/v1/tenant-settings/slack-bot-token, plinth tenant set-slack-token)',
        false,
      );
    }
    return postToSlack(this.ctx.config.delivery.slackApiUrl, this.ctx.egress, token, input);
  }
}
