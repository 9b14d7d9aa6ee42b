import { bool } from '../../core/body.js';
import { defineOptions, type OptionsOf } from '../../core/define.js';

/** The roles of users and API keys (the server's RoleSchema). */
export const ROLES = ['admin', 'member'] as const;

export const userOptions = defineOptions([
  { flags: '--email <email>', description: 'E-mail (the sign-in name)' },
  { flags: '--display-name <name>', description: 'Name shown to people' },
  { flags: '--first-name <name>', description: 'Given name' },
  { flags: '--last-name <name>', description: 'Family name' },
  { flags: '--title <title>', description: 'Job title' },
  { flags: '--role <role>', description: 'Role', choices: ROLES },
  { flags: '--active <bool>', description: 'true or false' },
]);

export const userFields = (opts: OptionsOf<typeof userOptions>) => ({
  email: opts.email,
  displayName: opts.displayName,
  firstName: opts.firstName,
  lastName: opts.lastName,
  title: opts.title,
  role: opts.role,
  active: bool(opts.active, '--active'),
});
