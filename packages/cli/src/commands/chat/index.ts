import type { Group } from '../../core/define.js';
import { ask } from './ask.js';
import { thread, threads } from './threads.js';

/** The analytics chat: questions to a deployment's agent, answered as an embedded user, and their threads. */
export const group: Group = {
  name: 'chat',
  summary: "Ask a deployment's agent as an embedded user, and read that user's threads",
  verbs: [ask, threads, thread],
};
