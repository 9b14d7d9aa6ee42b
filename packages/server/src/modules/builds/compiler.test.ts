import { describe, expect, it } from 'vitest';
import { ModelCompiler } from './compiler.js';
import { ORDERS_CUBE } from '../../test-support/models.js';

describe('the compile thread', () => {
  it('compiles a files map off the main thread and counts cubes', async () => {
    const compiler = new ModelCompiler();
    try {
      const summary = await compiler.compile(new Map([['model/cubes/orders.yml', ORDERS_CUBE]]));
      expect(summary).toEqual({ valid: true, errors: [], cubesCount: 1 });
    } finally {
      await compiler.close();
    }
  });

  it("answers the compiler's own errors, pointing at the file", async () => {
    const compiler = new ModelCompiler();
    try {
      const summary = await compiler.compile(new Map([['model/cubes/bad.yml', 'cubes:\n  - name: bad\n    measures: [\n']]));
      expect(summary.valid).toBe(false);
      expect(summary.errors.length).toBeGreaterThan(0);
      expect(summary.errors[0]).toMatchObject({ fileName: 'model/cubes/bad.yml', message: expect.any(String) });
    } finally {
      await compiler.close();
    }
  });

  it('keeps one thread for many compiles, and starts another after it was stopped', async () => {
    const compiler = new ModelCompiler();
    try {
      const files = new Map([['model/cubes/orders.yml', ORDERS_CUBE]]);
      const all = await Promise.all([1, 2, 3].map(() => compiler.compile(files)));
      expect(all.map((s) => s.cubesCount)).toEqual([1, 1, 1]);
      await compiler.close();
      expect((await compiler.compile(files)).cubesCount).toBe(1);
    } finally {
      await compiler.close();
    }
  });

  it('ends its thread once idle, and the next compile starts another', async () => {
    const compiler = new ModelCompiler(undefined, 200);
    try {
      const files = new Map([['model/cubes/orders.yml', ORDERS_CUBE]]);
      await Promise.all([compiler.compile(files), compiler.compile(files)]);
      expect(compiler.running).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(compiler.running).toBe(false);
      expect((await compiler.compile(files)).cubesCount).toBe(1);
      expect(compiler.running).toBe(true);
    } finally {
      await compiler.close();
    }
  });

  it('stops a compile that overruns its timeout and fails it, then compiles again', async () => {
    const compiler = new ModelCompiler(1);
    try {
      await expect(compiler.compile(new Map([['model/cubes/orders.yml', ORDERS_CUBE]]))).rejects.toThrow(/longer than/);
    } finally {
      await compiler.close();
    }
  });
});
