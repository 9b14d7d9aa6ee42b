import { describe, expect, it } from 'vitest';
import { parseAuthorization } from './credential-header.js';

const KEY = 'sk-abcdefghijklmnopqrstuvwxyz012345';
const SCIM = 'scim_abcdefghijklmnopqrstuvwxyz012345';
const ACCESS = 'pla_abcdefghijklmnopqrstuvwxyz012345';

describe('parseAuthorization', () => {
  // The usual `Api-Key <key>` takes a shortcut; every other spelling must reach the same answer.
  it.each([
    [`Api-Key ${KEY}`, { kind: 'apiKey', secret: KEY }],
    [`api-key ${KEY}`, { kind: 'apiKey', secret: KEY }],
    [`  Api-Key   ${KEY}  `, { kind: 'apiKey', secret: KEY }],
    [`Bearer ${SCIM}`, { kind: 'scimToken', secret: SCIM }],
    [`bearer ${ACCESS}`, { kind: 'accessToken', secret: ACCESS }],
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
