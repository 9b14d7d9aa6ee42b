import { getVerb } from '../../../core/rest.js';

export const get = getVerb({
  summary: "Show the account's embed theme (getEmbedTheme)",
  args: [],
  path: () => '/api/v1/users/embed-theme',
});
