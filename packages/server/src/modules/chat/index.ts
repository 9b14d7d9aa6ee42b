import type { PlinthModule, ServiceContext } from '../module.js';
import { ChatRepo } from './repo.js';
import { chatRoutes } from './routes.js';
import { chatSchemas } from './schemas.js';
import { ChatService } from './service.js';

declare module '../module.js' {
  interface PlinthActions {
    EmbedChat: true;
  }
  interface Services {
    chat: ChatService;
  }
}

/** The analytics chat: Cube's Chat API over a deployment's agents, answering as the embedded user. */
export const chatModule: PlinthModule = {
  name: 'chat',
  permissions: {
    EmbedChat: {
      description:
        "Ask a deployment's agents through the Chat API and read the asking user's threads: embed tokens for their own user, API keys for the user they name (who is minted a session as with generate-session, which needs EmbedSessionsManage too).",
      roles: ['admin'],
      kinds: ['embedToken'],
      keys: true,
    },
  },
  tags: {
    Chat: "The analytics chat (Cube's Chat API): questions to a deployment's agent, answered as the embedded user and streamed as NDJSON; threads per user.",
  },
  services: {
    chat: ({ db, services, egress }: ServiceContext) => new ChatService(new ChatRepo(db), services, egress),
  },
  tables: ['chat_thread', 'chat_message'],
  schemas: chatSchemas,
  routes: chatRoutes,
};
