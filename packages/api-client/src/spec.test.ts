import { readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '@plinth/server/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_FILE, clientSource, REGENERATE } from '../scripts/generate.mjs';

/** Where two sources part, for a message that points at the change rather than print 20,000 lines. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const at = a.findIndex((line, i) => line !== b[i]);
  const line = at === -1 ? a.length : at;
  return `line ${line + 1}: committed ${JSON.stringify(a[line] ?? '(end of file)')}, served ${JSON.stringify(b[line] ?? '(end of file)')}`;
}

describe("the API client's types", () => {
  let server: TestServer | undefined;
  let spec: { paths: Record<string, unknown>; components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };

  beforeAll(async () => {
    // The sources' server, as the tests run them: a route schema changed without regenerating shows here.
    server = await startTestServer('pglite');
    const response = await server.app.inject({ method: 'GET', url: '/api/v1/spec', headers: { host: 'anything' } });
    expect(response.statusCode).toBe(200);
    spec = JSON.parse(response.body) as typeof spec;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('are what the served spec generates (else run `npm run generate:client` and commit src/spec.ts)', async () => {
    const committed = readFileSync(CLIENT_FILE, 'utf8');
    const generated = await clientSource(spec);
    const drift = committed === generated ? undefined : firstDifference(committed, generated);
    expect(drift, `src/spec.ts differs from the served spec (${drift}): run \`${REGENERATE}\` and commit it`).toBeUndefined();
  });

  it('change when a schema of the spec changes, so the comparison above can fail', async () => {
    const changed = structuredClone(spec);
    const whoAmI = changed.components.schemas.WhoAmI!;
    whoAmI.properties = { ...whoAmI.properties, renamedField: { type: 'string' } };
    const generated = await clientSource(changed);
    expect(generated).not.toBe(await clientSource(spec));
    expect(generated).toContain('renamedField?: string;');
  });
});
