import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas.js';

/** Whether a token is set, never the token. */
export const SlackBotTokenStatus = Type.Object(
  {
    configured: Type.Boolean({ description: 'Whether the account has a Slack bot token; the token itself is never returned.' }),
    updatedAt: Type.Union([Timestamp, Type.Null()], { description: 'When it was last set; null when none is.' }),
  },
  { additionalProperties: false, $id: 'SlackBotTokenStatus' },
);
export type SlackBotTokenStatus = Static<typeof SlackBotTokenStatus>;

export const SetSlackBotTokenInput = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 500,
      description: "The Slack app's bot token (xoxb-…), with the chat:write and files:write scopes. Stored sealed, never returned.",
    }),
  },
  { additionalProperties: false, $id: 'SetSlackBotTokenInput' },
);

export const deliverySchemas = [SlackBotTokenStatus, SetSlackBotTokenInput];
