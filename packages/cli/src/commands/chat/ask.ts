import { pairs, positiveInt } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { CliError, UsageError } from '../../core/errors.js';
import { formatTable } from '../../core/output.js';

/** A line of the chat's stream (ChatStreamLine of the spec). */
interface Line {
  id?: string;
  role?: string;
  content?: string;
  graphPath?: string[];
  isDelta?: boolean;
  state?: { chatId?: string | null };
  toolCall?: { name: string; input: string; output?: { error?: string; data?: Record<string, unknown>[]; chart?: { type: string } } };
  error?: string;
  code?: string;
}

export const ask = defineVerb({
  name: 'ask',
  summary: "Ask a deployment's agent a question, as an embedded user (streamChatState, streamDeploymentChatState)",
  description:
    'Prints the tables of the queries the agent ran and its answer; the thread id goes to stderr (continue it with --chat-id). ' +
    '--json prints the NDJSON lines as they arrive. With an API key, name the user (--external-id or --internal-id, with ' +
    '--group/--attribute as generate-session); with --token, the embed token is the user. Without a question, --chat-id ' +
    "prints the thread's state.",
  args: ['[question]'],
  options: [
    { flags: '--agent <id>', description: 'The agent to ask (agentId)' },
    { flags: '--deployment <id>', description: "Ask the deployment's default agent instead (embed tokens only)" },
    { flags: '--chat-id <id>', description: 'Continue this thread' },
    { flags: '--message-id <id>', description: 'Idempotency key <13+ digit ms timestamp>-message' },
    { flags: '--token <embed_token>', description: 'Ask as this embed token' },
    { flags: '--external-id <id>', description: 'With an API key: the external user' },
    { flags: '--internal-id <email>', description: 'With an API key: an internal user' },
    { flags: '--email <email>', description: 'With an API key: e-mail of the external user' },
    { flags: '--tenant <name>', description: 'With an API key: embedTenantName (default: the account)' },
    { flags: '--group <name>', description: 'With an API key: a group of the user (repeatable)', repeatable: true },
    { flags: '--attribute <name=value>', description: 'With an API key: a user attribute (repeatable)', repeatable: true },
    { flags: '--timezone <zone>', description: "IANA time zone of this turn's queries" },
  ],
  examples: [
    'plinth chat ask "Revenue by country?" --agent 4 --external-id ada@example.com --group regional --attribute country=UK',
    'plinth chat ask "And last month?" --deployment 3 --token "$EMBED_TOKEN" --chat-id 0b6c7a52-9d7e-4a53-9c1f-1f6c5a0e2b11',
  ],
  async run(f, [question], opts) {
    if ((opts.agent === undefined) === (opts.deployment === undefined))
      throw new UsageError('Give exactly one of --agent and --deployment');
    const path =
      opts.agent !== undefined
        ? `/api/v1/agents/${positiveInt(opts.agent, '--agent')}/chat/stream-chat-state`
        : `/api/v1/deployments/${positiveInt(opts.deployment!, '--deployment')}/chat/stream-chat-state`;
    const user = {
      externalId: opts.externalId,
      internalId: opts.internalId,
      email: opts.email,
      embedTenantName: opts.tenant,
      groups: opts.group,
      userAttributes: opts.attribute ? pairs(opts.attribute, '--attribute').map(([name, value]) => ({ name, value })) : undefined,
      timezone: opts.timezone,
    };
    const settings = Object.fromEntries(Object.entries(user).filter(([, v]) => v !== undefined));
    const body = {
      input: question,
      chatId: opts.chatId,
      messageId: opts.messageId,
      ...(Object.keys(settings).length ? { sessionSettings: settings } : {}),
    };
    const client = await f.client();
    const asToken = opts.token === undefined ? {} : { anonymous: true, headers: { authorization: opts.token } };
    const signal = f.io.interrupted?.() ?? new AbortController().signal;
    const lines = await client.lines(path, { ...asToken, method: 'POST', body, signal });
    let failure: Line | undefined;
    for await (const text of lines) {
      if (text.trim() === '') continue;
      if (f.output.json) f.output.data(text);
      const line = JSON.parse(text) as Line;
      if (line.error !== undefined) failure = line;
      if (f.output.json) continue;
      if (line.id === '__cutoff__' && line.state?.chatId) f.output.notice(`Thread: ${line.state.chatId}`);
      const output = line.toolCall?.output;
      if (output) {
        if (output.error) f.output.notice(`${line.toolCall!.name}: ${output.error}`);
        else if (output.data) printRows(f.output.data.bind(f.output), output.data);
      }
      if (line.role === 'assistant' && line.graphPath?.[0] === 'final' && !line.isDelta && line.content) f.output.data(line.content);
    }
    if (failure) throw new CliError(`${failure.error} (${failure.code})`);
  },
});

function printRows(write: (text: string) => void, rows: Record<string, unknown>[]): void {
  if (rows.length === 0) return write('(no rows)');
  write(
    formatTable(
      Object.keys(rows[0]!).map((key) => [key, key]),
      rows,
    ),
  );
}
