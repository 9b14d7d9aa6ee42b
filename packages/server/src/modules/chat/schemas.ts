import { Type, type Static } from '@sinclair/typebox';
import { IntegerId, Timestamp } from '../../http/common-schemas.js';
import { GroupNames } from '../embed-tenants/public.js';
import { EmbedUserAttributeInput } from '../embed/schemas.js';
import { CHAT_ERROR_CODES, CHART_TYPES, LIMITS } from './limits.js';

export const CHAT_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const ChatId = Type.String({ pattern: CHAT_ID_PATTERN, description: 'A thread id, as the `__cutoff__` line gave it in `state.chatId`.' });

/**
 * Who the chat acts for, as Cube's Chat API takes it: required with an API key (the user is made
 * or updated as generate-session does), and with an embed token only repeating what the token says
 * (a field that differs is refused, naming it).
 */
export const ChatSessionSettings = Type.Object(
  {
    externalId: Type.Optional(Type.String({ maxLength: 400, description: 'Exactly one of externalId / internalId (API key).' })),
    internalId: Type.Optional(Type.String({ maxLength: 254, description: 'Username (e-mail) of an existing internal user.' })),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    embedTenantName: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'The embed tenant; defaults to the account.' }),
    ),
    userAttributes: Type.Optional(Type.Array(Type.Ref(EmbedUserAttributeInput), { maxItems: 1000 })),
    groups: Type.Optional(GroupNames),
    roles: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 })),
    securityContext: Type.Optional(Type.Object({}, { additionalProperties: true })),
    isEphemeral: Type.Optional(Type.Boolean()),
    ephemeralTtlSeconds: Type.Optional(Type.Integer({ minimum: 60 })),
    timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone for this turn’s queries.' })),
  },
  { additionalProperties: false, $id: 'ChatSessionSettings' },
);
export type ChatSessionSettings = Static<typeof ChatSessionSettings>;

export const ChatRequest = Type.Object(
  {
    input: Type.Optional(
      Type.String({
        maxLength: LIMITS.inputChars,
        description: `The question (at most ${LIMITS.inputChars} characters). Omitted with a chatId: the thread's state is streamed back; omitted with neither: a probe that creates nothing and says whether the chat is configured.`,
      }),
    ),
    chatId: Type.Optional(ChatId),
    messageId: Type.Optional(
      Type.String({
        pattern: '^[0-9]{13,}-message$',
        maxLength: 40,
        description: 'Idempotency key `<13+ digit ms timestamp>-message`: a repeat replays (or follows) that turn instead of asking again.',
      }),
    ),
    sessionSettings: Type.Optional(Type.Ref(ChatSessionSettings)),
  },
  { additionalProperties: false, $id: 'ChatRequest' },
);
export type ChatRequest = Static<typeof ChatRequest>;

/** A tool call of the assistant and, once done, its result (Cube's JSON strings, and `output` parsed). */
const ToolCall = Type.Object({
  name: Type.String({ description: '`cubeMeta` (the views the user may query) or `cubeQuery` (a data API query run as the user).' }),
  input: Type.String({ description: 'The arguments, a JSON string.' }),
  result: Type.Optional(Type.String({ description: 'The result, a JSON string; `{"error": …}` for a refused or failed call.' })),
  output: Type.Optional(Type.Ref('ChatToolOutput')),
});

/** What a `cubeQuery` call gives the UI: a table and a chart, drawn from the same rows. */
export const ChatToolOutput = Type.Object(
  {
    error: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
    query: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The Cube query that ran.' })),
    data: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { description: `Rows, at most ${LIMITS.rows}.` })),
    totalRows: Type.Optional(Type.Integer()),
    annotation: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Titles and types of the members, as /load.' })),
    chart: Type.Optional(
      Type.Object({
        type: Type.Union(CHART_TYPES.map((t) => Type.Literal(t))),
        x: Type.Union([Type.String(), Type.Null()], { description: 'The member on the x axis (or the slices of a pie).' }),
        y: Type.Array(Type.String(), { description: 'The measures drawn.' }),
      }),
    ),
    cubes: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'cubeMeta: the views.' })),
  },
  { $id: 'ChatToolOutput' },
);

/**
 * One line of the stream (application/x-ndjson). Cube's shape: `__cutoff__` first (with
 * `state.chatId`), the user's message, assistant deltas and tool calls, the final answer
 * (`graphPath: ["final"]`, `isDelta: false`), `__state__` last; or `{error, code}`.
 */
export const ChatStreamLine = Type.Object(
  {
    id: Type.Optional(Type.String()),
    role: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('assistant')])),
    content: Type.Optional(Type.String({ description: 'With isDelta: the text to append; otherwise the whole text.' })),
    toolCall: Type.Optional(ToolCall),
    graphPath: Type.Optional(Type.Array(Type.String())),
    isDelta: Type.Optional(Type.Boolean()),
    isInProcess: Type.Optional(Type.Boolean()),
    sort: Type.Optional(Type.Integer()),
    state: Type.Optional(
      Type.Object({
        chatId: Type.Optional(Type.Union([ChatId, Type.Null()])),
        isStreaming: Type.Optional(Type.Boolean()),
        agentId: Type.Optional(Type.Union([IntegerId, Type.Null()])),
        messages: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
      }),
    ),
    error: Type.Optional(Type.String({ description: 'An error line: the turn ended; nothing more follows but `__state__`.' })),
    code: Type.Optional(Type.Union(CHAT_ERROR_CODES.map((c) => Type.Literal(c)))),
  },
  { $id: 'ChatStreamLine' },
);

export const ChatThreadSummary = Type.Object(
  {
    chatId: ChatId,
    title: Type.String({ description: 'The first question, shortened.' }),
    deploymentId: IntegerId,
    agentId: Type.Union([IntegerId, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'ChatThreadSummary' },
);
export type ChatThreadSummary = Static<typeof ChatThreadSummary>;

export const ChatThreadList = Type.Object({ threads: Type.Array(Type.Ref(ChatThreadSummary)) }, { $id: 'ChatThreadList' });

export const ChatThread = Type.Object(
  {
    ...ChatThreadSummary.properties,
    isStreaming: Type.Boolean(),
    messages: Type.Array(Type.Ref(ChatStreamLine), { description: 'The stored lines: user messages, tool calls with results, answers.' }),
  },
  { $id: 'ChatThread' },
);

/** With an API key, the user whose threads are read; with an embed token, nothing (the token says). */
export const ChatUserQuery = Type.Object(
  {
    externalId: Type.Optional(Type.String({ maxLength: 400 })),
    internalId: Type.Optional(Type.String({ maxLength: 254 })),
    embedTenantName: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ChatUserQuery = Static<typeof ChatUserQuery>;

export const AgentChatParams = Type.Object({ agentId: IntegerId });
export const DeploymentChatParams = Type.Object({ deploymentId: IntegerId });
export const ThreadParams = Type.Object({ chatId: ChatId });

export const chatSchemas = [
  ChatSessionSettings,
  ChatRequest,
  ChatToolOutput,
  ChatStreamLine,
  ChatThreadSummary,
  ChatThreadList,
  ChatThread,
];
