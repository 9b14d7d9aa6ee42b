import { describe, expect, it } from 'vitest';
import { LineBatch, createServerLog } from './logger.js';

describe('LineBatch', () => {
  it('passes lines on in order, joined, once they add up to a batch or on flush', () => {
    const chunks: string[] = [];
    const batch = new LineBatch((chunk) => chunks.push(chunk));
    batch.write('a\n');
    batch.write('b\n');
    expect(chunks).toEqual([]);
    batch.flush();
    expect(chunks).toEqual(['a\nb\n']);
    batch.flush();
    expect(chunks).toHaveLength(1);

    const long = `${'x'.repeat(20 * 1024)}\n`;
    batch.write('c\n');
    batch.write(long);
    expect(chunks).toEqual(['a\nb\n', `c\n${long}`]);
  });
});

describe('server log', () => {
  function capture(level: string) {
    const chunks: string[] = [];
    const log = createServerLog(level, { write: (chunk) => chunks.push(chunk), flushSync: () => {} });
    const lines = () => {
      log.flushSync();
      return chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    };
    return { log, lines };
  }

  it('writes the access line in the same JSON format as its other lines, whatever the path holds', () => {
    const { log, lines } = capture('info');
    log.logger.info({ signal: 'SIGTERM' }, 'finishing in-flight requests');
    const path = '/a/"quoted"\\/ü\n\u0000';
    log.access({ reqId: 'r-1', method: 'GET', path, status: 404, ms: 3 });
    const [other, access] = lines();
    expect(access).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: other!.hostname,
      reqId: 'r-1',
      method: 'GET',
      path,
      status: 404,
      ms: 3,
      msg: 'request',
    });
    expect(Object.keys(access!).slice(0, 4)).toEqual(Object.keys(other!).slice(0, 4));
  });

  it('leaves access lines out below level info, and redacts credentials in other lines', () => {
    const { log, lines } = capture('warn');
    log.access({ reqId: 'r-1', method: 'GET', path: '/x', status: 200, ms: 0 });
    log.logger.warn({ headers: { authorization: 'Api-Key sk-secretsecretsecretsecret' } }, 'odd request');
    const written = lines();
    expect(written).toHaveLength(1);
    expect(JSON.stringify(written)).not.toContain('sk-secret');
  });
});
