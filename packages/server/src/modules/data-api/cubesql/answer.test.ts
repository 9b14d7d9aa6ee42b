import { afterAll, expect, it } from 'vitest';
import { describeOnStores } from '../../../test-support/server.js';
import { asToken, dataDirOverride, gateWarehouse, sampleDeployment, serviceOn, tokenOf } from '../test-fixtures.js';
import type { DataApiService } from '../service.js';
import { cubesqlAnswer } from './routes.js';

const rowsOf = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .slice(1)
    .flatMap((line) => (JSON.parse(line) as { data: unknown[][] }).data);

describeOnStores(
  'cubesql answers through the data API service',
  (server) => {
    const services: DataApiService[] = [];
    afterAll(async () => {
      for (const service of services) await service.close();
    });

    it('answers Continue wait past the wait limit, as load does, and the retry gets the rows from one execution', async () => {
      const service = serviceOn(server(), { continueWaitMs: 30 });
      services.push(service);
      const { account, deploymentId, principal } = await sampleDeployment(server(), service);
      const gated = await gateWarehouse([service], account.id, deploymentId);
      gated.hold();
      const body = { query: 'SELECT MEASURE(count) FROM orders' };
      const waiting = asToken(principal);
      expect(await cubesqlAnswer(service, ...waiting, body)).toBe('{"error":"Continue wait"}\n');
      expect(await cubesqlAnswer(service, ...waiting, body)).toBe('{"error":"Continue wait"}\n');
      gated.release();
      let answer = await cubesqlAnswer(service, ...waiting, body);
      while (answer.startsWith('{"error"')) answer = await cubesqlAnswer(service, ...waiting, body);
      expect(rowsOf(answer)).toEqual([[expect.any(String)]]);
      expect(gated.counter.executions).toBe(1);
    });

    it("resolves names by the caller's access policy: a member hidden from the caller is no column", async () => {
      const service = serviceOn(server());
      services.push(service);
      const { account, deploymentId } = await sampleDeployment(server(), service);
      const served = asToken(tokenOf(account.id, deploymentId));
      await expect(cubesqlAnswer(service, ...served, { query: 'SELECT email FROM customers' })).rejects.toMatchObject({
        status: 400,
        message: 'Column email does not exist in customers',
      });
      const visible = await cubesqlAnswer(service, ...served, { query: 'SELECT city FROM customers GROUP BY 1' });
      expect(rowsOf(visible).length).toBeGreaterThan(0);
    });
  },
  dataDirOverride(),
);
