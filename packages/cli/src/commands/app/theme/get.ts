import { getVerb } from '../../../core/rest.js';

export const get = getVerb({
  summary: "Show the account's app theme, with the defaults for what was never set (getAppTheme)",
  args: [],
  path: () => '/api/v1/app-theme',
});
