import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';

export interface SignOptions {
  /** RS256 (default) or ES256: the issuer publishes a key of each. */
  alg?: 'RS256' | 'ES256';
  /** Signs with a key the issuer does not publish (under a published kid). */
  foreignKey?: boolean;
  issuer?: string;
  audience?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  /** Seconds from now before which the token is not valid. */
  notBefore?: number;
  /** Leaves `exp` out. */
  noExpiry?: boolean;
}

/** A local OpenID Connect issuer for tests: discovery document, JWKS and ID tokens signed with its keys. */
export interface StandInIssuer {
  issuer: string;
  jwksUri: string;
  audience: string;
  /** Paths requested so far, to see what was cached. */
  requests: string[];
  sign(claims: JWTPayload, options?: SignOptions): Promise<string>;
  close(): Promise<void>;
}

export async function startStandInIssuer(audience = 'plinth-test'): Promise<StandInIssuer> {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const ec = await generateKeyPair('ES256', { extractable: true });
  const foreign = { RS256: await generateKeyPair('RS256'), ES256: await generateKeyPair('ES256') };
  const keys = [
    { ...(await exportJWK(rsa.publicKey)), kid: 'rs1', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(ec.publicKey)), kid: 'es1', alg: 'ES256', use: 'sig' },
  ];
  const requests: string[] = [];
  let issuer = '';
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.url === '/.well-known/openid-configuration') return json(200, { issuer, jwks_uri: `${issuer}/jwks` });
    if (request.url === '/jwks') return json(200, { keys });
    json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const own: Record<'RS256' | 'ES256', CryptoKey> = { RS256: rsa.privateKey, ES256: ec.privateKey };
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    audience,
    requests,
    async sign(claims, options = {}) {
      const alg = options.alg ?? 'RS256';
      const key = options.foreignKey ? foreign[alg].privateKey : own[alg];
      const now = Math.floor(Date.now() / 1000);
      let jwt = new SignJWT(claims)
        .setProtectedHeader({ alg, kid: alg === 'RS256' ? 'rs1' : 'es1', typ: 'JWT' })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? audience)
        .setIssuedAt(now);
      if (!options.noExpiry) jwt = jwt.setExpirationTime(now + (options.expiresIn ?? 300));
      if (options.notBefore !== undefined) jwt = jwt.setNotBefore(now + options.notBefore);
      return jwt.sign(key);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
