import { describe, expect, it } from 'vitest';
import { newRequestId } from './context.js';

describe('newRequestId', () => {
  it('gives random (version 4) UUIDs, all distinct across several refills of its random bytes', () => {
    const ids = Array.from({ length: 1_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
