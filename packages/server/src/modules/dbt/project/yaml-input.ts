import { parseDocument } from 'yaml';
import { DbtProjectError } from './types.js';

/** Parses a YAML file of the project; a syntax error names the file and line. */
export function parseYamlFile(file: string, text: string): unknown {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: false });
  const error = document.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    const where = line === undefined ? '' : ` at line ${line}`;
    const reason = error.message.split('\n')[0];
    throw new DbtProjectError(`${file} is not valid YAML${where}: ${reason}`, file);
  }
  return document.toJS({ maxAliasCount: 1000 }) as unknown;
}

/** Parses a JSON file of the project; a syntax error names the file. */
export function parseJsonFile(file: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DbtProjectError(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, file);
  }
}
