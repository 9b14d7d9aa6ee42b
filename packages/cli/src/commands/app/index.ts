import type { Group } from '../../core/define.js';
import { theme } from './theme/index.js';

/** `plinth app …`: settings of the application itself (its theme). */
export const group: Group = {
  name: 'app',
  summary: 'The application: its theme',
  verbs: [theme],
};
