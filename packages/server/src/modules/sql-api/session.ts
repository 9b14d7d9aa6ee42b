import { CatalogError } from './catalog-protocol.js';
import { describeQuery, NO_BINDING, runQuery, type Binding, type Outcome, type Served } from './plans.js';
import { copyOut } from './copy.js';
import { commandOf, type SessionState } from './commands.js';
import { leadingWords, splitStatements } from './statements.js';
import { SqlFailure, wireErrorOf } from './errors.js';
import * as wire from './wire.js';

interface Prepared {
  sql: string;
  paramOids: number[];
}

interface Portal {
  prepared: Prepared;
  binding: Binding;
  outcome?: Outcome;
  sent: number;
  done: boolean;
}

/** Where a session's answers go: written in order, each call awaited before the next message is read. */
export type Send = (chunk: Buffer) => Promise<void> | void;

const QUERY_WORDS = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE', 'SHOW']);

/**
 * One connection's protocol state after authentication: the simple query protocol and the
 * extended one (named and unnamed statements and portals, row limits, formats), transactions as
 * status only (the SQL API reads; BEGIN and COMMIT are acknowledged), and cancellation of the
 * statement running. Nothing here ends the process: every failure is an ErrorResponse.
 */
export class SqlSession {
  private readonly statements = new Map<string, Prepared>();
  private readonly portals = new Map<string, Portal>();
  private readonly state: SessionState = { inTransaction: false, failed: false, settings: new Map() };
  /** After an error in the extended protocol, messages up to Sync are skipped, as PostgreSQL does. */
  private skipping = false;
  private running: AbortController | undefined;
  /** Where the answers to the message being handled go (the connection sets it per message). */
  send: Send = () => undefined;

  constructor(
    private readonly served: () => Promise<Served>,
    private readonly onInternal: (error: unknown) => void,
  ) {}

  /** CancelRequest for this session: the statement running ends with SQLSTATE 57014. */
  cancel(): void {
    this.running?.abort();
  }

  private status(): 'I' | 'T' | 'E' {
    if (this.state.failed) return 'E';
    return this.state.inTransaction ? 'T' : 'I';
  }

  private async fail(error: unknown): Promise<void> {
    if (this.state.inTransaction) this.state.failed = true;
    if (!(error instanceof CatalogError) && wireErrorOf(error).code === 'XX000') this.onInternal(error);
    await this.send(error instanceof CatalogError ? error.response : wire.errorResponse(wireErrorOf(error)));
  }

  /** The simple query protocol: each statement of the text in turn, the first error ending the rest. */
  async query(text: string): Promise<void> {
    const statements = splitStatements(text);
    if (statements.length === 0) await this.send(wire.emptyQueryResponse());
    for (const sql of statements) {
      try {
        await this.runStatement(sql, [], NO_BINDING, 0, true);
      } catch (error) {
        await this.fail(error);
        break;
      }
    }
    this.portals.delete('');
    await this.send(wire.readyForQuery(this.status()));
  }

  /** Runs one statement to completion (simple protocol) or up to `maxRows` (Execute). */
  private async runStatement(sql: string, paramOids: number[], binding: Binding, maxRows: number, describe: boolean, portal?: Portal) {
    const words = leadingWords(sql);
    const command = commandOf(words, sql, this.state);
    if (command) {
      if (this.state.failed && !command.endsTransaction) throw transactionAborted();
      for (const reply of command.replies) await this.send(reply);
      return;
    }
    if (this.state.failed) throw transactionAborted();
    if (words[0] === 'COPY') {
      await this.withCancel((signal) => copyOut(sql, this.served, this.send, signal));
      return;
    }
    if (!QUERY_WORDS.has(words[0] ?? '')) throw notAQuery(words[0] ?? '');
    const outcome =
      portal?.outcome ?? (await this.withCancel(async (signal) => runQuery(sql, paramOids, binding, await this.served(), signal)));
    if (portal) portal.outcome = outcome;
    if (describe) await this.send(outcome.description ?? wire.noData());
    await this.sendRows(outcome, maxRows, portal);
  }

  private async sendRows(outcome: Outcome, maxRows: number, portal?: Portal): Promise<void> {
    let sent = 0;
    for (;;) {
      if (maxRows > 0 && sent === maxRows) {
        await this.send(wire.portalSuspended());
        return;
      }
      const next = await outcome.rows.next();
      if (next.done) break;
      await this.send(next.value);
      sent += 1;
    }
    if (portal) portal.done = true;
    await this.send(wire.commandComplete(outcome.tag(sent + (portal?.sent ?? 0))));
    if (portal) portal.sent += sent;
  }

  private async withCancel<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.running = controller;
    // A cancelled statement answers at once; what it started (a warehouse query others may share) runs on unawaited.
    const cancelled = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(new SqlFailure('57014', 'canceling statement due to user request')), {
        once: true,
      }),
    );
    cancelled.catch(() => undefined);
    try {
      const running = run(controller.signal);
      running.catch(() => undefined);
      const result = await Promise.race([running, cancelled]);
      controller.signal.throwIfAborted();
      return result;
    } catch (error) {
      if (controller.signal.aborted) throw new SqlFailure('57014', 'canceling statement due to user request');
      throw error;
    } finally {
      if (this.running === controller) this.running = undefined;
    }
  }

  /** One message of the extended protocol (Parse, Bind, Describe, Execute, Close, Sync, Flush). */
  async extended(type: string, reader: wire.MessageReader): Promise<void> {
    if (type === 'S') {
      this.skipping = false;
      this.portals.delete('');
      await this.send(wire.readyForQuery(this.status()));
      return;
    }
    if (type === 'H' || this.skipping) return;
    try {
      await this.extendedStep(type, reader);
    } catch (error) {
      this.skipping = true;
      await this.fail(error);
    }
  }

  private async extendedStep(type: string, reader: wire.MessageReader): Promise<void> {
    switch (type) {
      case 'P': {
        const name = reader.cstring();
        const sql = reader.cstring();
        const count = reader.int16();
        const paramOids = Array.from({ length: count }, () => reader.int32());
        if (splitStatements(sql).length > 1) {
          throw new SqlFailure('42601', 'cannot insert multiple commands into a prepared statement');
        }
        if (name !== '' && this.statements.has(name)) throw duplicate('prepared statement', name);
        this.statements.set(name, { sql, paramOids });
        await this.send(wire.parseComplete());
        return;
      }
      case 'B': {
        const portalName = reader.cstring();
        const prepared = this.statementNamed(reader.cstring());
        const paramFormats = Array.from({ length: reader.int16() }, () => reader.int16());
        const values = Array.from({ length: reader.int16() }, () => {
          const length = reader.int32();
          return length < 0 ? null : reader.bytesOf(length);
        });
        const resultFormats = Array.from({ length: reader.int16() }, () => reader.int16());
        if (portalName !== '' && this.portals.has(portalName)) throw duplicate('cursor', portalName);
        this.portals.set(portalName, { prepared, binding: { values, paramFormats, resultFormats }, sent: 0, done: false });
        await this.send(wire.bindComplete());
        return;
      }
      case 'D': {
        const kind = String.fromCharCode(reader.byte());
        const name = reader.cstring();
        if (kind === 'S') return this.describeStatement(this.statementNamed(name));
        return this.describePortal(this.portalNamed(name));
      }
      case 'E': {
        const portal = this.portalNamed(reader.cstring());
        const maxRows = reader.int32();
        if (portal.done) {
          await this.send(wire.commandComplete(portal.outcome?.tag(0) ?? 'SELECT 0'));
          return;
        }
        const { sql, paramOids } = portal.prepared;
        if (splitStatements(sql).length === 0) {
          await this.send(wire.emptyQueryResponse());
          return;
        }
        await this.runStatement(sql, paramOids, portal.binding, maxRows, false, portal);
        return;
      }
      case 'C': {
        const kind = String.fromCharCode(reader.byte());
        const name = reader.cstring();
        if (kind === 'S') this.statements.delete(name);
        else this.portals.delete(name);
        await this.send(wire.closeComplete());
        return;
      }
      default:
        throw new wire.ProtocolViolation(`unexpected message type "${type}"`);
    }
  }

  private async describeStatement(prepared: Prepared): Promise<void> {
    const words = leadingWords(prepared.sql, 1);
    if (!QUERY_WORDS.has(words[0] ?? '')) {
      await this.send(wire.parameterDescription(prepared.paramOids));
      await this.send(wire.noData());
      return;
    }
    const shape = await describeQuery(prepared.sql, prepared.paramOids, await this.served());
    await this.send(wire.parameterDescription(shape.paramOids));
    await this.send(shape.description ?? wire.noData());
  }

  private async describePortal(portal: Portal): Promise<void> {
    const { sql, paramOids } = portal.prepared;
    const words = leadingWords(sql, 1);
    if (!QUERY_WORDS.has(words[0] ?? '')) return this.send(wire.noData());
    // The rows are computed here, once: Execute then sends them in the formats Bind asked for.
    portal.outcome ??= await this.withCancel(async (signal) => runQuery(sql, paramOids, portal.binding, await this.served(), signal));
    await this.send(portal.outcome.description ?? wire.noData());
  }

  private statementNamed(name: string): Prepared {
    const found = this.statements.get(name);
    if (!found) throw new SqlFailure('26000', `prepared statement "${name}" does not exist`);
    return found;
  }

  private portalNamed(name: string): Portal {
    const found = this.portals.get(name);
    if (!found) throw new SqlFailure('34000', `portal "${name}" does not exist`);
    return found;
  }
}

const transactionAborted = () => new SqlFailure('25P02', 'current transaction is aborted, commands ignored until end of transaction block');
const duplicate = (what: string, name: string) => new SqlFailure(what === 'cursor' ? '42P03' : '42P05', `${what} "${name}" already exists`);
/** Statements PostgreSQL knows that the SQL API does not run: anything else is a syntax error there. */
const KNOWN = new Set(
  'INSERT UPDATE DELETE MERGE CREATE ALTER DROP TRUNCATE GRANT REVOKE COMMENT VACUUM ANALYZE CLUSTER REINDEX LOCK EXPLAIN PREPARE EXECUTE DECLARE FETCH MOVE CLOSE CALL DO NOTIFY LOAD IMPORT REFRESH SECURITY CHECKPOINT'.split(
    ' ',
  ),
);
const notAQuery = (word: string) =>
  !KNOWN.has(word)
    ? new SqlFailure('42601', `syntax error at or near "${word}"`)
    : new SqlFailure(
        '0A000',
        `${word || 'This statement'} is not supported: the SQL API answers queries (SELECT, WITH, VALUES, SHOW, COPY (query) TO STDOUT) and session commands`,
      );
