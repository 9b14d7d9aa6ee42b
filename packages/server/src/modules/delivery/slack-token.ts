import type { Kysely } from 'kysely';
import { toIsoOrNull } from '../../http/common-schemas.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import type { SlackBotTokenStatus } from './schemas.js';

/** A Slack bot token: `xoxb-` then Slack's letters, digits and dashes. */
const BOT_TOKEN = /^xoxb-[A-Za-z0-9-]{8,}$/;

/**
 * The account's Slack bot token: sealed with the server's secret key, only its presence and when it
 * was set are ever answered; delivery opens it to post.
 */
export class SlackTokenStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
  ) {}

  async status(accountId: number): Promise<SlackBotTokenStatus> {
    const row = await this.db.selectFrom('slack_bot_token').select('updated_at').where('account_id', '=', accountId).executeTakeFirst();
    return { configured: row !== undefined, updatedAt: toIsoOrNull(row?.updated_at ?? null) };
  }

  async set(accountId: number, userId: number, token: string): Promise<SlackBotTokenStatus> {
    const trimmed = token.trim();
    if (!BOT_TOKEN.test(trimmed)) {
      throw badRequest('token must be a Slack bot token (xoxb-…): a user or app-level token cannot post as the bot');
    }
    const values = { token_sealed: this.secrets.seal(trimmed), updated_by: userId, updated_at: new Date() };
    await this.db
      .insertInto('slack_bot_token')
      .values({ account_id: accountId, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
      .execute();
    return this.status(accountId);
  }

  async delete(accountId: number): Promise<void> {
    const deleted = await this.db.deleteFrom('slack_bot_token').where('account_id', '=', accountId).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw notFound('No Slack bot token is set for this account');
  }

  /** The token in the clear, for posting; undefined when none is set. */
  async token(accountId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('slack_bot_token').select('token_sealed').where('account_id', '=', accountId).executeTakeFirst();
    return row ? this.secrets.open(row.token_sealed) : undefined;
  }
}
