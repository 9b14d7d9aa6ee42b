import { readFile } from 'node:fs/promises';
import { UsageError } from './errors.js';
import type { IO } from './io.js';

/** Reads `-d` input: a JSON literal, `@file` for a file's content, or `-` for standard input. */
export async function readDataArg(io: IO, value: string): Promise<string> {
  if (value === '-') return io.readStdin();
  if (value.startsWith('@')) {
    try {
      return await readFile(value.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`Cannot read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  return value;
}

/** `-d` input parsed as JSON; a usage error names what is wrong. */
export async function readJsonArg(io: IO, value: string, flag = '-d'): Promise<unknown> {
  const text = await readDataArg(io, value);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The request body of a create or update: the `-d` object, with the values of flags on top. */
export async function bodyOf(io: IO, data: string | undefined, fromFlags: Record<string, unknown>): Promise<Record<string, unknown>> {
  const base = data === undefined ? {} : await readJsonArg(io, data);
  if (base === null || typeof base !== 'object' || Array.isArray(base)) throw new UsageError('-d must be a JSON object');
  const body: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(fromFlags)) if (value !== undefined) body[key] = value;
  return body;
}

/** `key=value` pairs of repeatable flags such as `-q`. */
export function pairs(values: string[] | undefined, flag: string): Array<[string, string]> {
  return (values ?? []).map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} expects key=value, got "${pair}"`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

export function positiveInt(value: string, what: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${what} must be a positive whole number, got "${value}"`);
  return Number(value);
}

/** `true`/`false` (also yes/no, 1/0) of flags such as `--active false`. */
export function bool(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (['true', 'yes', '1', 'on'].includes(v)) return true;
  if (['false', 'no', '0', 'off'].includes(v)) return false;
  throw new UsageError(`${flag} expects true or false, got "${value}"`);
}

export function int(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`${flag} expects a whole number, got "${value}"`);
  return Number(value);
}
