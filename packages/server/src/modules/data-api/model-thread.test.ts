import { sampleModelFiles } from '@plinth/semantic';
import { describe, expect, it } from 'vitest';
import { ModelThread } from './model-thread.js';

describe("the data API's compile thread", () => {
  it('answers the compiled model, ends its thread once idle, and starts another for the next compile', async () => {
    const thread = new ModelThread(200);
    const files = new Map(Object.entries(sampleModelFiles()));
    try {
      const model = await thread.compile(files);
      expect([...model.cubes.keys()]).toContain('orders');
      expect(thread.running).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(thread.running).toBe(false);
      expect([...(await thread.compile(files)).cubes.keys()]).toContain('orders');
    } finally {
      await thread.close();
    }
  });
});
