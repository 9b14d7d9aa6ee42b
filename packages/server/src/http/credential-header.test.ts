import { describe, expect, it } from 'vitest';
import { parseAuthorization } from './credential-header.js';

const KEY = 'sk-abcdefghijklmnopqrstuvwxyz012345';
const SCIM = 'scim_abcdefghijklmnopqrstuvwxyz012345';
const ACCESS = 'pla_abcdefghijklmnopqrstuvwxyz012345';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJ4IjoxfQ.c2lnbmF0dXJl';

describe('parseAuthorization', () => {
  // The usual `Api-Key <key>` takes a shortcut; every other spelling must reach the same answer.
  it.each([
    [`Api-Key ${KEY}`, { kind: 'apiKey', secret: KEY }],
    [`api-key ${KEY}`, { kind: 'apiKey', secret: KEY }],
    [`  Api-Key   ${KEY}  `, { kind: 'apiKey', secret: KEY }],
    [`Bearer ${SCIM}`, { kind: 'scimToken', secret: SCIM }],
    [`bearer ${ACCESS}`, { kind: 'accessToken', secret: ACCESS }],
    // The data API takes its JWTs bare or as Bearer, as Cube does.
    [`Bearer ${JWT}`, { kind: 'dataToken', secret: JWT }],
    [JWT, { kind: 'dataToken', secret: JWT }],
  ])('%j is a credential', (header, expected) => {
    expect(parseAuthorization(header)).toEqual(expected);
  });

  it.each([
    [undefined, 'Missing Authorization header'],
    ['   ', 'Missing Authorization header'],
    ['Api-Key sk-short', 'Malformed API key'],
    [`Api-Key ${KEY} extra`, 'Malformed Authorization header'],
    [`Api-Key ${KEY}!`, 'Malformed API key'],
    [`Basic ${KEY}`, 'Unsupported Authorization scheme "Basic"'],
    [`Bearer ${KEY}`, 'API keys must be sent as "Authorization: Api-Key <key>"'],
  ])('%j is refused: %s', (header, message) => {
    expect(() => parseAuthorization(header)).toThrow(message);
  });
});
