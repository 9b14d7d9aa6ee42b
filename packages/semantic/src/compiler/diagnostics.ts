export interface CompileError {
  readonly fileName: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** Where in a file a model element starts, when the YAML parser could tell us. */
export interface Location {
  readonly line: number;
  readonly column: number;
}

/** Collects every problem instead of stopping at the first, so a user fixes a model in one pass. */
export class Diagnostics {
  readonly errors: CompileError[] = [];

  error(fileName: string, message: string, at?: Location): void {
    this.errors.push(at ? { fileName, message, line: at.line, column: at.column } : { fileName, message });
  }
}
