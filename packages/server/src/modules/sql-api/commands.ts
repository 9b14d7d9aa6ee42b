import { stripComments } from './statements.js';
import { SqlFailure } from './errors.js';
import * as wire from './wire.js';

/** What a session keeps between statements: its transaction status and its SET values. */
export interface SessionState {
  inTransaction: boolean;
  /** An error happened inside a transaction block: statements are refused until it ends. */
  failed: boolean;
  settings: Map<string, string>;
}

export interface Command {
  replies: Buffer[];
  /** COMMIT, ROLLBACK and the like end a failed block too. */
  endsTransaction?: boolean;
}

/** Settings a client is told of when they change (ParameterStatus), as PostgreSQL reports them. */
const REPORTED = new Map(
  ['application_name', 'DateStyle', 'IntervalStyle', 'TimeZone', 'client_encoding', 'search_path', 'standard_conforming_strings'].map(
    (name) => [name.toLowerCase(), name],
  ),
);

/** Settings whose change would alter how this server's answers read: kept as they are. */
const FIXED: Record<string, string> = { client_encoding: 'UTF8', standard_conforming_strings: 'on' };

const tagged = (tag: string): Command => ({ replies: [wire.commandComplete(tag)] });

/**
 * The session commands BI tools send around their queries, answered without the catalog or the
 * model: transaction control (the SQL API only reads, so a transaction is a status to report), SET
 * and RESET (kept per session, reported when PostgreSQL would), DISCARD, DEALLOCATE, LISTEN and
 * UNLISTEN. Undefined for any other statement.
 */
export function commandOf(words: string[], sql: string, state: SessionState): Command | undefined {
  const [first = '', second = ''] = words;
  switch (first) {
    case 'BEGIN':
    case 'START':
      state.inTransaction = true;
      return tagged(first === 'BEGIN' ? 'BEGIN' : 'START TRANSACTION');
    case 'COMMIT':
    case 'END':
    case 'ROLLBACK':
    case 'ABORT': {
      if (first === 'ROLLBACK' && second === 'TO') {
        state.failed = false;
        return { replies: [wire.commandComplete('ROLLBACK')], endsTransaction: true };
      }
      const rolledBack = state.failed || first === 'ROLLBACK' || first === 'ABORT';
      state.inTransaction = false;
      state.failed = false;
      return { replies: [wire.commandComplete(rolledBack ? 'ROLLBACK' : 'COMMIT')], endsTransaction: true };
    }
    case 'SAVEPOINT':
      return tagged('SAVEPOINT');
    case 'RELEASE':
      return tagged('RELEASE');
    case 'SET':
      return set(sql, state);
    case 'RESET':
      if (second === 'ALL') state.settings.clear();
      else state.settings.delete(second.toLowerCase());
      return tagged('RESET');
    case 'DISCARD':
      state.settings.clear();
      return tagged(`DISCARD ${second || 'ALL'}`);
    case 'DEALLOCATE':
      return tagged('DEALLOCATE');
    case 'LISTEN':
    case 'UNLISTEN':
      return tagged(first);
    case 'SHOW': {
      const name = second.toLowerCase().replace(/"/g, '');
      const value = state.settings.get(name);
      if (value === undefined) return undefined;
      return {
        replies: [wire.rowDescription([{ name, typeOid: 25 }]), wire.dataRow([Buffer.from(value, 'utf8')]), wire.commandComplete('SHOW')],
      };
    }
    default:
      return undefined;
  }
}

/** `SET [SESSION | LOCAL] name {TO | =} value`, and `SET TIME ZONE value`. */
function set(sql: string, state: SessionState): Command {
  const text = stripComments(sql).trim().replace(/;\s*$/, '');
  const zone = /^set\s+(?:session\s+|local\s+)?time\s+zone\s+(.+)$/i.exec(text);
  const match = zone
    ? ['', 'timezone', zone[1]!]
    : /^set\s+(?:session\s+|local\s+)?([A-Za-z_][\w.]*|"[^"]+")\s*(?:to|=)\s*(.+)$/is.exec(text);
  if (!match) {
    if (/^set\s+(session\s+characteristics|transaction)\b/i.test(text)) return tagged('SET');
    throw new SqlFailure('42601', `SET could not be read: write SET name TO value`);
  }
  const name = match[1]!.replace(/"/g, '').toLowerCase();
  const value = match[2]!
    .trim()
    .split(/\s*,\s*/)
    .map((part) => part.replace(/^'(.*)'$/s, '$1').replace(/''/g, "'"))
    .join(', ');
  const fixed = FIXED[name];
  if (fixed !== undefined && value.toUpperCase().replace(/-/g, '') !== fixed.toUpperCase() && value.toUpperCase() !== 'DEFAULT') {
    throw new SqlFailure('0A000', `${name} cannot be changed: the SQL API answers with ${name} ${fixed}`);
  }
  if (value.toUpperCase() === 'DEFAULT') state.settings.delete(name);
  else state.settings.set(name, value);
  const reported = REPORTED.get(name);
  return { replies: [...(reported ? [wire.parameterStatus(reported, value)] : []), wire.commandComplete('SET')] };
}
