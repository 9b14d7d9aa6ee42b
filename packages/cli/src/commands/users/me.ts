import { getVerb } from '../../core/rest.js';

export const me = getVerb({
  name: 'me',
  args: [],
  summary: 'Show the user the credential acts for (getMe)',
  path: () => '/api/v1/users/me',
});
