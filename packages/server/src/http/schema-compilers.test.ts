import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { compileAllSchemas, installLazySerializers, referencedSchemas } from './schema-compilers.js';
import { installValidation } from './validation.js';

describe('referencedSchemas', () => {
  const shared = {
    Leaf: { $id: 'Leaf', type: 'string' },
    Middle: { $id: 'Middle', type: 'object', properties: { leaf: { $ref: 'Leaf#' } } },
    Other: { $id: 'Other', type: 'number' },
    Cycle: { $id: 'Cycle', type: 'array', items: { $ref: 'Cycle' } },
  };

  it('follows references through shared schemas, and no further', () => {
    const found = referencedSchemas({ type: 'object', properties: { m: { $ref: 'Middle' } } }, shared);
    expect([...found.keys()].sort()).toEqual(['Leaf', 'Middle']);
  });

  it('ends on a schema that refers to itself', () => {
    expect([...referencedSchemas({ $ref: 'Cycle' }, shared).keys()]).toEqual(['Cycle']);
  });

  it('takes a property named $ref (SCIM members) as a schema, not a reference', () => {
    const found = referencedSchemas(
      { type: 'object', properties: { $ref: { type: 'string' }, o: { anyOf: [{ $ref: 'Other' }] } } },
      shared,
    );
    expect([...found.keys()]).toEqual(['Other']);
  });

  it('ignores local and unknown references, and names the object prototype has', () => {
    expect(referencedSchemas({ $ref: '#/definitions/x', items: { $ref: 'Nowhere' }, not: { $ref: 'constructor' } }, shared).size).toBe(0);
  });
});

describe('lazy compilers', () => {
  async function appWith(response: object) {
    const app = Fastify();
    installValidation(app);
    installLazySerializers(app);
    app.addSchema({ $id: 'Thing', type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] });
    app.post('/things', { schema: { body: Type.Ref('Thing'), response: { 200: response } } }, async (request) => ({
      ...(request.body as object),
      secret: 'not in the schema',
    }));
    await app.ready();
    return app;
  }

  it('validate with the errors of the compiled validator, and serialize through the shared schema', async () => {
    const app = await appWith(Type.Ref('Thing'));
    const bad = await app.inject({ method: 'POST', url: '/things', payload: { name: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('must NOT have fewer than 2 characters');
    const good = await app.inject({ method: 'POST', url: '/things', payload: { name: 'xy' } });
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ name: 'xy' });
    // The validator's errors are its own call's: a bad body after a good one is still refused.
    expect((await app.inject({ method: 'POST', url: '/things', payload: {} })).statusCode).toBe(400);
    expect(compileAllSchemas(app)).toBe(2);
    await app.close();
  });

  it('compileAllSchemas surfaces a schema that cannot compile, which ready() no longer does', async () => {
    const app = await appWith({ $ref: 'Missing' });
    expect(() => compileAllSchemas(app)).toThrow(/Missing/);
    await app.close();
  });
});
