import { compile, meta } from '@plinth/semantic';
import { describe, expect, it } from 'vitest';
import { MetaCache } from './meta-cache.js';

const MODEL = `cubes:
  - name: products
    sql_table: products
    dimensions:
      - { name: category, sql: category, type: string }
      - { name: price, sql: price, type: number }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: analyst
        member_level:
          includes: [category, count]
      - group: manager
`;

const compiled = () => {
  const { model, valid, errors } = compile({ 'model/products.yml': MODEL });
  if (!valid || !model) throw new Error(JSON.stringify(errors));
  return model;
};
const analyst = { groups: ['analyst'], securityContext: {}, userAttributes: {} };
const manager = { groups: ['manager'], securityContext: {}, userAttributes: {} };
const names = (answer: ReturnType<typeof meta>) => answer.cubes.flatMap((c) => [...c.measures, ...c.dimensions].map((m) => m.name));

describe('the data API keeps meta answers per model and caller', () => {
  it("answers each caller what the model's policies show them, the same answer again for the same caller", () => {
    const cache = new MetaCache();
    const model = compiled();
    const first = cache.of(model, analyst);
    expect(names(first)).toEqual(names(meta(model, analyst)));
    expect(names(first)).not.toContain('products.price');
    expect(cache.of(model, { ...analyst })).toBe(first);
    expect(names(cache.of(model, manager))).toContain('products.price');
  });

  it('answers a newly compiled model from that model, not from an earlier one', () => {
    const cache = new MetaCache();
    const before = cache.of(compiled(), manager);
    const after = cache.of(compiled(), manager);
    expect(after).not.toBe(before);
    expect(after).toEqual(before);
  });
});
