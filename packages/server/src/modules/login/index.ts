import type { PlinthModule } from '../module.js';
import { loginRoutes } from './routes.js';
import { loginSchemas } from './schemas.js';

/** Login of the command-line client: device flow, tokens, passwords, invites, whoami (issue 5). */
export const loginModule: PlinthModule = { name: 'login', schemas: loginSchemas, routes: loginRoutes };
