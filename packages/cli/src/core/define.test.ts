import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineVerb, type OptionsOf } from './define.js';

// Declared only for its type.
const _options = [
  { flags: '-d, --data <json>', description: 'Body' },
  { flags: '--display-name <name>', description: 'Name' },
  { flags: '--group <name>', description: 'Group', repeatable: true },
  { flags: '--force', description: 'Do it' },
  { flags: '--role <role>', description: 'Role', required: true },
] as const;

describe('typed verb options', () => {
  it('gives each declared option the type its notation implies, keyed as commander keys it', () => {
    expectTypeOf<OptionsOf<typeof _options>>().toEqualTypeOf<{
      data: string | undefined;
      displayName: string | undefined;
      group: string[] | undefined;
      force: boolean | undefined;
      role: string;
    }>();
  });

  it('does not let a verb read an option it did not declare', async () => {
    const read: unknown[] = [];
    const verb = defineVerb({
      name: 'probe',
      summary: 'Reads its options',
      options: [{ flags: '--name <name>', description: 'Name' }],
      async run(_f, _args, opts) {
        read.push(opts.name);
        // @ts-expect-error --email is not declared by this verb
        read.push(opts.email);
      },
    });
    await verb.run(undefined as never, [], { name: 'ada' });
    expect(read).toEqual(['ada', undefined]);
  });
});
