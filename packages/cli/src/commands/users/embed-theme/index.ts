import type { Group } from '../../../core/define.js';
import { get } from './get.js';
import { set } from './set.js';

/** `plinth users embed-theme get|set`: the theme embedded dashboards and chats start from. */
export const embedTheme: Group = {
  name: 'embed-theme',
  summary: "The account's embed theme: colours and font of embedded dashboards and chats",
  verbs: [get, set],
};
