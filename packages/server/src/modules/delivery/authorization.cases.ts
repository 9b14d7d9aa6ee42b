import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

const URL = '/api/v1/tenant-settings/slack-bot-token';
export const SLACK_TOKEN = 'xoxb-1234567890-abcdefghij';

/** A token set through the store, so the delete has something to remove. */
const withToken = async (account: TestAccount, server: TestServer) => {
  await server.services.delivery.slackTokens.set(account.id, account.admin.id, SLACK_TOKEN);
  return { url: URL };
};

/** The Slack bot token's operations, for the shared authorisation suite (run by slack-token.test.ts). */
export const cases: OperationCase[] = [
  { operation: 'getSlackBotToken', method: 'GET', targetsResource: false, prepare: async () => ({ url: URL }) },
  {
    operation: 'setSlackBotToken',
    method: 'PUT',
    targetsResource: false,
    prepare: async () => ({ url: URL, body: { token: SLACK_TOKEN } }),
  },
  { operation: 'deleteSlackBotToken', method: 'DELETE', targetsResource: false, successStatus: 204, prepare: withToken },
];
