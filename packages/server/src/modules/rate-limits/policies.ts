/**
 * A limit that slows down repeated attempts instead of refusing them for good: the first `free`
 * attempts of a bucket go through at once, then each one must wait `base * 2^(n - free)` after the
 * previous one, at most `capMs`. A bucket nobody touched for `forgetAfterMs` starts afresh. Because
 * the delay ends, whoever triggers it (an attacker guessing someone's password) cannot lock the real
 * user out; they only slow everyone down for a while.
 */
export interface DelayPolicy {
  kind: 'delay';
  name: string;
  free: number;
  capMs: number;
  forgetAfterMs: number;
}

/** At most `limit` hits per bucket in a fixed window of `windowMs`. */
export interface WindowPolicy {
  kind: 'window';
  name: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;

/** Sign-in failures for one e-mail of one account, from whatever addresses. */
export const SIGN_IN_PER_EMAIL: DelayPolicy = {
  kind: 'delay',
  name: 'sign-in-email',
  free: 5,
  capMs: 5 * MINUTE,
  forgetAfterMs: 24 * 60 * MINUTE,
};

/** Sign-in attempts from one client address, whatever e-mails they name: a spray across users. */
export const SIGN_IN_PER_ADDRESS: DelayPolicy = {
  kind: 'delay',
  name: 'sign-in-address',
  free: 30,
  capMs: 15 * MINUTE,
  forgetAfterMs: 60 * MINUTE,
};

/**
 * Failed OIDC token exchanges from one client address: the exchange is unauthenticated (the
 * subject token is the credential), so guessing is slowed down as sign-in is.
 */
export const OIDC_EXCHANGES_PER_ADDRESS: DelayPolicy = {
  kind: 'delay',
  name: 'oidc-exchange-address',
  free: 30,
  capMs: 15 * MINUTE,
  forgetAfterMs: 60 * MINUTE,
};

/** Device logins started from one client address. */
export const DEVICE_CODES_PER_ADDRESS: WindowPolicy = { kind: 'window', name: 'device-code', limit: 30, windowMs: 10 * MINUTE };

/** Telemetry events of one account from one client address, whatever machine id they carry. */
export const TELEMETRY_PER_ADDRESS: WindowPolicy = { kind: 'window', name: 'telemetry', limit: 60, windowMs: MINUTE };

/** How long a bucket at its delay must wait after its last hit before the next attempt. */
export function delayAfter(policy: DelayPolicy, hits: number, baseMs: number): number {
  if (hits < policy.free) return 0;
  return Math.min(policy.capMs, baseMs * 2 ** Math.min(hits - policy.free, 40));
}
