import { defineVerb } from '../../core/define.js';
import { enc } from '../../core/rest.js';

const USER_OPTIONS = [
  { flags: '--token <embed_token>', description: 'Read as this embed token (its own user)' },
  { flags: '--external-id <id>', description: 'With an API key: the external user' },
  { flags: '--internal-id <email>', description: 'With an API key: the internal user' },
  { flags: '--tenant <name>', description: 'With an API key: embedTenantName of the external user (default: the account)' },
] as const;

function userOf(opts: { token?: string; externalId?: string; internalId?: string; tenant?: string }) {
  const as = opts.token === undefined ? {} : { anonymous: true, headers: { authorization: opts.token } };
  return { ...as, query: { externalId: opts.externalId, internalId: opts.internalId, embedTenantName: opts.tenant } };
}

export const threads = defineVerb({
  name: 'threads',
  summary: "List a user's chat threads, newest first (listChatThreads)",
  options: USER_OPTIONS,
  examples: ['plinth chat threads --external-id ada@example.com', 'plinth chat threads --token "$EMBED_TOKEN" --json'],
  async run(f, _args, opts) {
    const client = await f.client();
    const response = await client.request<{ threads: Record<string, unknown>[] }>('GET', '/api/v1/chat/threads', userOf(opts));
    f.output.list({ ...response, data: { items: response.data.threads } as never }, [
      ['Chat ID', 'chatId'],
      ['Title', 'title'],
      ['Deployment', 'deploymentId'],
      ['Agent', 'agentId'],
      ['Updated', 'updatedAt'],
    ]);
  },
});

/** A stored line of the thread (ChatStreamLine). */
interface Message {
  role?: string;
  content?: string;
  toolCall?: { name: string; input: string };
}

export const thread = defineVerb({
  name: 'thread',
  summary: 'Show one chat thread with its messages (getChatThread)',
  args: ['<chat_id>'],
  options: USER_OPTIONS,
  examples: ['plinth chat thread 0b6c7a52-9d7e-4a53-9c1f-1f6c5a0e2b11 --external-id ada@example.com'],
  async run(f, [chatId], opts) {
    const client = await f.client();
    const response = await client.request<{ title: string; messages: Message[] }>(
      'GET',
      `/api/v1/chat/threads/${enc(chatId ?? '')}`,
      userOf(opts),
    );
    if (f.output.json) return f.output.raw(response);
    f.output.data(`# ${response.data.title}`);
    for (const message of response.data.messages) {
      if (message.toolCall) f.output.data(`[${message.toolCall.name}] ${message.toolCall.input}`);
      else f.output.data(`${message.role === 'user' ? '>' : ''} ${message.content ?? ''}`.trim());
    }
  },
});
