import { describe, expect, it } from 'vitest';
import type { PlinthModule, ServiceContext } from './modules/module.js';
import { assembleServices } from './services.js';

/** Modules whose services are plain records, to see how the assembly orders and shares them. */
const base = {} as Omit<ServiceContext, 'services'>;
const module = (name: string, services: Record<string, (ctx: ServiceContext) => unknown>) =>
  ({ name, services }) as unknown as PlinthModule;
const get = (ctx: ServiceContext, name: string) => (ctx.services as unknown as Record<string, unknown>)[name];

describe('assembling services from modules', () => {
  it('builds a service before the one that reads it, whatever the order of the modules, and each once', () => {
    const built: string[] = [];
    const services = assembleServices(
      [
        module('b', {
          reports: (ctx) => {
            const users = get(ctx, 'users');
            built.push('reports');
            return { users };
          },
        }),
        module('a', { users: () => (built.push('users'), { name: 'users' }) }),
      ],
      base,
    ) as unknown as Record<string, { users?: unknown }>;
    expect(built).toEqual(['users', 'reports']);
    expect(services.reports!.users).toBe(services.users);
  });

  it('fails at start-up on a cycle, naming it', () => {
    const modules = [module('a', { first: (ctx) => get(ctx, 'second') }), module('b', { second: (ctx) => get(ctx, 'first') })];
    expect(() => assembleServices(modules, base)).toThrow('Services depend on each other in a cycle: first -> second -> first');
  });

  it('refuses two modules declaring one name', () => {
    expect(() => assembleServices([module('a', { users: () => 1 }), module('b', { users: () => 2 })], base)).toThrow(
      'Two modules declare the service "users"',
    );
  });
});
