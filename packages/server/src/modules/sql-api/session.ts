import { CatalogError } from './catalog-protocol.js';
import { describeQuery, endStream, NO_BINDING, runQuery, type Binding, type Outcome, type Served } from './plans.js';
import { copyOut } from './copy.js';
import { commandOf, type SessionState } from './commands.js';
import { parseClose, parseDeclare, parseFetch } from './cursors.js';
import { leadingWords, splitStatements } from './statements.js';
import { cancelled, SqlFailure, untilAborted, wireErrorOf } from './errors.js';
import { duplicate, notAQuery, transactionAborted } from './refusals.js';
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
  /** Ends the portal's statement: its stream's warehouse cursor is released when it aborts. */
  controller: AbortController;
  /** A cursor of DECLARE: WITH HOLD, and whether the transaction that declared it is still open. */
  cursor?: { hold: boolean; uncommitted: boolean };
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
  private closed = false;
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

  /** The connection is gone: every statement, portal and cursor ends, and their warehouse cursors with them. */
  close(): void {
    this.closed = true;
    this.running?.abort();
    for (const name of [...this.portals.keys()]) this.dropPortal(name);
  }

  /** Forgets a portal and ends its stream, if it has one still open. */
  private dropPortal(name: string): void {
    const portal = this.portals.get(name);
    if (!portal) return;
    this.portals.delete(name);
    endStream(portal.outcome, portal.controller);
  }

  /** At a transaction's end: cursors without HOLD close; a rollback closes those it declared too. */
  private endTransaction(rolledBack: boolean): void {
    for (const [name, portal] of [...this.portals]) {
      if (!portal.cursor) continue;
      if (!portal.cursor.hold || (rolledBack && portal.cursor.uncommitted)) this.dropPortal(name);
      else portal.cursor.uncommitted = false;
    }
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
    this.dropPortal('');
    await this.send(wire.readyForQuery(this.status()));
  }

  /** Runs one statement to completion (simple protocol) or up to `maxRows` (Execute). */
  private async runStatement(sql: string, paramOids: number[], binding: Binding, maxRows: number, describe: boolean, portal?: Portal) {
    const words = leadingWords(sql);
    const wasFailed = this.state.failed;
    const wasInTransaction = this.state.inTransaction;
    const command = commandOf(words, sql, this.state);
    if (command) {
      if (wasFailed && !command.endsTransaction) throw transactionAborted();
      if (wasInTransaction && !this.state.inTransaction) {
        this.endTransaction(wasFailed || ((words[0] === 'ROLLBACK' || words[0] === 'ABORT') && words[1] !== 'TO'));
      }
      for (const reply of command.replies) await this.send(reply);
      return;
    }
    if (this.state.failed) throw transactionAborted();
    if (words[0] === 'COPY') {
      await this.withCancel(new AbortController(), (signal) => copyOut(sql, this.served, this.send, signal));
      return;
    }
    if (words[0] === 'DECLARE') return this.declare(sql, paramOids, binding);
    if (words[0] === 'FETCH' || words[0] === 'MOVE') return this.fetch(sql, describe);
    if (words[0] === 'CLOSE') return this.closeCursor(sql);
    if (!QUERY_WORDS.has(words[0] ?? '')) throw notAQuery(words[0] ?? '');
    const controller = portal?.controller ?? new AbortController();
    try {
      const outcome =
        portal?.outcome ??
        (await this.withCancel(controller, async (signal) => runQuery(sql, paramOids, binding, await this.served(), signal)));
      if (portal) portal.outcome = outcome;
      if (describe) await this.send(outcome.description ?? wire.noData());
      const sent = await this.asRunning(controller, () => this.sendRows(outcome, maxRows, controller.signal));
      if (sent.suspended) {
        await this.send(wire.portalSuspended());
        if (portal) portal.sent += sent.count;
        return;
      }
      if (portal) portal.done = true;
      await this.send(wire.commandComplete(outcome.tag(sent.count + (portal?.sent ?? 0))));
      if (portal) portal.sent += sent.count;
      if (!portal) endStream(outcome, controller);
    } catch (error) {
      // A failed statement's stream ends here; a portal's ends when the portal is dropped.
      if (!portal) controller.abort();
      else if (portal.outcome) portal.done = true;
      throw error;
    }
  }

  /**
   * Sends up to `maxRows` rows (all for 0) of a stream, each awaited by the connection's
   * backpressure; `move` reads them without sending (MOVE). An error once the signal aborted is the
   * cancellation's.
   */
  private async sendRows(outcome: Outcome, maxRows: number, signal: AbortSignal, move = false) {
    let count = 0;
    try {
      for (;;) {
        if (maxRows > 0 && count === maxRows) return { count, suspended: true };
        const next = await untilAborted(outcome.rows.next(), signal);
        if (next.done) return { count, suspended: false };
        if (!move) await this.send(next.value);
        count += 1;
      }
    } catch (error) {
      if (signal.aborted) throw cancelled();
      throw error;
    }
  }

  /** Runs `work` as the session's running statement, the one a CancelRequest ends. */
  private async asRunning<T>(controller: AbortController, work: () => Promise<T>): Promise<T> {
    if (this.closed) controller.abort();
    this.running = controller;
    try {
      return await work();
    } finally {
      if (this.running === controller) this.running = undefined;
    }
  }

  /** DECLARE: the query is planned now (its errors are DECLARE's); its rows stream as FETCH reads them. */
  private async declare(sql: string, paramOids: number[], binding: Binding): Promise<void> {
    const declared = parseDeclare(sql);
    if (!declared.hold && !this.state.inTransaction) {
      throw new SqlFailure('25P01', 'DECLARE CURSOR can only be used in transaction blocks');
    }
    if (this.portals.has(declared.name)) throw duplicate('cursor', declared.name);
    if (!QUERY_WORDS.has(leadingWords(declared.query, 1)[0] ?? '') || leadingWords(declared.query, 1)[0] === 'SHOW') {
      throw new SqlFailure('42601', `syntax error at or near "${leadingWords(declared.query, 1)[0] ?? ''}"`);
    }
    const controller = new AbortController();
    const resultFormats = declared.binary ? [1] : [];
    const cursorBinding = { ...binding, resultFormats };
    const outcome = await this.withCancel(controller, async (signal) =>
      runQuery(declared.query, paramOids, cursorBinding, await this.served(), signal),
    );
    this.portals.set(declared.name, {
      prepared: { sql: declared.query, paramOids },
      binding: cursorBinding,
      outcome,
      sent: 0,
      done: false,
      controller,
      cursor: { hold: declared.hold, uncommitted: this.state.inTransaction },
    });
    await this.send(wire.commandComplete('DECLARE CURSOR'));
  }

  /** FETCH and MOVE: the next rows of a cursor (or a portal), with its RowDescription for FETCH. */
  private async fetch(sql: string, describe: boolean): Promise<void> {
    const { move, count, name } = parseFetch(sql);
    const portal = this.cursorNamed(name);
    const outcome = portal.outcome!;
    if (!move && describe) await this.send(outcome.description ?? wire.noData());
    const sent = portal.done
      ? { count: 0, suspended: false }
      : await this.asRunning(portal.controller, () =>
          this.sendRows(outcome, count === Infinity ? 0 : count, portal.controller.signal, move),
        ).catch((error: unknown) => {
          portal.done = true;
          throw error;
        });
    if (!sent.suspended) portal.done = true;
    portal.sent += sent.count;
    await this.send(wire.commandComplete(`${move ? 'MOVE' : 'FETCH'} ${sent.count}`));
  }

  private async closeCursor(sql: string): Promise<void> {
    const name = parseClose(sql);
    if (name === null) {
      for (const [key, portal] of [...this.portals]) if (portal.cursor) this.dropPortal(key);
      await this.send(wire.commandComplete('CLOSE CURSOR ALL'));
      return;
    }
    this.cursorNamed(name);
    this.dropPortal(name);
    await this.send(wire.commandComplete('CLOSE CURSOR'));
  }

  private cursorNamed(name: string): Portal {
    const found = this.portals.get(name);
    if (!found?.outcome) throw new SqlFailure('34000', `cursor "${name}" does not exist`);
    return found;
  }

  private async withCancel<T>(controller: AbortController, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.closed) controller.abort();
    this.running = controller;
    // A cancelled statement answers at once; what it started (a warehouse query others may share) runs on unawaited.
    const stopped = new Promise<never>((_, reject) => {
      if (controller.signal.aborted) reject(cancelled());
      controller.signal.addEventListener('abort', () => reject(cancelled()), { once: true });
    });
    stopped.catch(() => undefined);
    try {
      const running = run(controller.signal);
      // A statement answered after its cancellation still ends its stream.
      running.then((late) => controller.signal.aborted && endStream(late as Outcome, controller)).catch(() => undefined);
      const result = await Promise.race([running, stopped]);
      controller.signal.throwIfAborted();
      return result;
    } catch (error) {
      if (controller.signal.aborted) throw cancelled();
      throw error;
    } finally {
      if (this.running === controller) this.running = undefined;
    }
  }

  /** One message of the extended protocol (Parse, Bind, Describe, Execute, Close, Sync, Flush). */
  async extended(type: string, reader: wire.MessageReader): Promise<void> {
    if (type === 'S') {
      this.skipping = false;
      this.dropPortal('');
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
        this.dropPortal(portalName);
        const binding = { values, paramFormats, resultFormats };
        this.portals.set(portalName, { prepared, binding, sent: 0, done: false, controller: new AbortController() });
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
        else this.dropPortal(name);
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
    if (words[0] === 'FETCH' && !portal.outcome)
      return this.send(this.cursorNamed(parseFetch(sql).name).outcome!.description ?? wire.noData());
    if (!QUERY_WORDS.has(words[0] ?? '') && !portal.cursor) return this.send(wire.noData());
    // The query is planned here, once: Execute then streams its rows in the formats Bind asked for.
    portal.outcome ??= await this.withCancel(portal.controller, async (signal) =>
      runQuery(sql, paramOids, portal.binding, await this.served(), signal),
    );
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
