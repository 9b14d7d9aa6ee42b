import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';

describe('SQL listener settings', () => {
  it('listens on 15432 by default, on PLINTH_SQL_PORT when set, and not at all when it is off', () => {
    expect(loadConfig({}).sql).toEqual({ port: 15432, tls: undefined, tlsRequired: false });
    expect(loadConfig({ PLINTH_SQL_PORT: '0' }).sql.port).toBe(0);
    expect(loadConfig({ PLINTH_SQL_PORT: '25432' }).sql.port).toBe(25432);
    expect(loadConfig({ PLINTH_SQL_PORT: 'off' }).sql.port).toBeNull();
    expect(() => loadConfig({ PLINTH_SQL_PORT: 'many' })).toThrow('Invalid setting PLINTH_SQL_PORT: "many" is not a whole number');
  });

  it('takes TLS from a certificate and a key file, both or neither, offered unless PLINTH_SQL_TLS_REQUIRED', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-sql-tls-'));
    writeFileSync(join(dir, 'cert.pem'), 'CERT');
    writeFileSync(join(dir, 'key.pem'), 'KEY');
    expect(loadConfig({ PLINTH_SQL_TLS_CERT: join(dir, 'cert.pem'), PLINTH_SQL_TLS_KEY: join(dir, 'key.pem') }).sql.tls).toEqual({
      cert: 'CERT',
      key: 'KEY',
    });
    expect(() => loadConfig({ PLINTH_SQL_TLS_CERT: join(dir, 'cert.pem') })).toThrow('Invalid setting PLINTH_SQL_TLS_KEY: is needed too');
    const both = { PLINTH_SQL_TLS_CERT: join(dir, 'cert.pem'), PLINTH_SQL_TLS_KEY: join(dir, 'key.pem') };
    expect(loadConfig(both).sql.tlsRequired).toBe(false);
    expect(loadConfig({ ...both, PLINTH_SQL_TLS_REQUIRED: 'true' }).sql.tlsRequired).toBe(true);
    expect(() => loadConfig({ PLINTH_SQL_TLS_REQUIRED: 'true' })).toThrow(
      'Invalid setting PLINTH_SQL_TLS_REQUIRED: needs PLINTH_SQL_TLS_CERT',
    );
    expect(() => loadConfig({ ...both, PLINTH_SQL_TLS_REQUIRED: 'maybe' })).toThrow(/PLINTH_SQL_TLS_REQUIRED: "maybe" is not one of/);
    expect(() => loadConfig({ PLINTH_SQL_TLS_CERT: join(dir, 'none.pem'), PLINTH_SQL_TLS_KEY: join(dir, 'key.pem') })).toThrow(
      /PLINTH_SQL_TLS_CERT: cannot read/,
    );
  });
});
