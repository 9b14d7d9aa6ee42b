import { createCipheriv, createDecipheriv, createHash, hash, randomBytes } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random base62 text; 43 characters carry more than 256 bits. */
export function randomBase62(length = 43): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps every character equally likely (248 = 4 * 62).
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const byte = bytes[i]!;
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

/**
 * Credentials are high-entropy random strings, so a fast hash is enough to make a stolen table
 * useless. They are found by their hash, never compared byte by byte: a timing difference in the
 * index lookup tells a caller about a hash it chose, not about any stored secret. It runs on every
 * authenticated request, so it uses the one-shot `hash`, a third of `createHash`'s cost.
 */
export function hashCredential(credential: string): string {
  return hash('sha256', credential, 'hex');
}

/** AES-256-GCM for secrets that must be read back (OAuth client secrets, signing keys). */
export class SecretBox {
  private readonly key: Buffer;
  constructor(masterKey: string) {
    this.key = createHash('sha256').update(masterKey).digest();
  }
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
