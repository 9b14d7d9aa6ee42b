import { bool } from '../../core/body.js';
import type { OptionSpec } from '../../core/define.js';

export const userOptions: OptionSpec[] = [
  { flags: '--email <email>', description: 'E-mail (the sign-in name)' },
  { flags: '--display-name <name>', description: 'Name shown to people' },
  { flags: '--role <role>', description: 'admin or member' },
  { flags: '--active <bool>', description: 'true or false' },
];

export const userFields = (opts: Record<string, any>) => ({
  email: opts.email,
  displayName: opts.displayName,
  role: opts.role,
  active: bool(opts.active, '--active'),
});
