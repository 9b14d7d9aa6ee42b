import { ApiError, unauthenticated } from '../http/errors.js';
import { kindName, parseAuthorization, parseCredentialText, type PresentedCredential } from '../http/credential-header.js';
import { credentialLabel, type CredentialKind, type Principal, type PrincipalOf } from '../http/principal.js';
import type { Check, OperationInput } from '../http/requirement.js';
import type { AccountRow } from '../store/schema.js';

/**
 * Verifies a secret of one credential kind for an account, or throws a 401. A verifier may answer
 * synchronously (a credential it has just verified) so the common request never waits on a promise.
 */
export type CredentialVerifier<K extends CredentialKind = CredentialKind> = (
  account: AccountRow,
  secret: string,
) => PrincipalOf<K> | Promise<PrincipalOf<K>>;

export type CredentialVerifiers = { [K in CredentialKind]?: CredentialVerifier<K> };

/**
 * Who a credential is, for a tenant: the verifiers modules register (credentials, deployment
 * tokens), and the one way they are asked. What carries the credential only changes how its text
 * is read: an Authorization header (HTTP) or the text alone (a SQL connection's password).
 */
export class Credentials {
  readonly verifiers: CredentialVerifiers = {};

  /** The principal of an Authorization header, among the kinds the operation accepts. */
  fromHeader(account: AccountRow, header: string | undefined, kinds: readonly CredentialKind[]): Principal | Promise<Principal> {
    return this.verify(account, parseAuthorization(header), kinds);
  }

  /** The principal of a credential's text, with no scheme (its form tells its kind). */
  fromText(account: AccountRow, text: string, kinds: readonly CredentialKind[]): Principal | Promise<Principal> {
    return this.verify(account, parseCredentialText(text), kinds);
  }

  verify(account: AccountRow, presented: PresentedCredential, kinds: readonly CredentialKind[]): Principal | Promise<Principal> {
    if (!kinds.includes(presented.kind)) {
      const wanted = kinds.map((k) => credentialLabel[k]).join(' or ');
      throw unauthenticated(`A ${kindName[presented.kind]} is not accepted here: this operation requires ${wanted}`);
    }
    const verify = this.verifiers[presented.kind] as CredentialVerifier | undefined;
    if (!verify) throw new ApiError('internal_error', `No verifier for ${kindName[presented.kind]}s`);
    return verify(account, presented.secret);
  }

  /**
   * Admits a request to an operation: verifies its credential and checks the operation's
   * requirement (`authorize`, compiled from what the operation declares). Answers the principal,
   * synchronously when the verifier could; throws the 401 or 403 to send. Every way into an
   * operation (a route, a cached answer of one) is admitted here.
   */
  admit(
    account: AccountRow,
    header: string | undefined,
    kinds: readonly CredentialKind[],
    check: Check,
    input: OperationInput,
  ): Principal | Promise<Principal> {
    return this.admitPresented(account, parseAuthorization(header), kinds, check, input);
  }

  /** As admit, for a credential already read from its header (a cached answer keeps what its identical header read as). */
  admitPresented(
    account: AccountRow,
    presented: PresentedCredential,
    kinds: readonly CredentialKind[],
    check: Check,
    input: OperationInput,
  ): Principal | Promise<Principal> {
    const verified = this.verify(account, presented, kinds);
    if (verified instanceof Promise) return verified.then((principal) => checked(principal, check, input));
    return checked(verified, check, input);
  }

  /** The first of `kinds` no verifier is registered for: an operation accepting it could never be called. */
  unverifiable(kinds: readonly CredentialKind[]): CredentialKind | undefined {
    return kinds.find((kind) => !this.verifiers[kind]);
  }
}

function checked(principal: Principal, check: Check, input: OperationInput): Principal {
  const refusal = check(principal, input);
  if (refusal) throw refusal;
  return principal;
}
