/**
 * Reads `{{ config(...) }}` from a model's SQL without running Jinja: only keyword arguments whose
 * values are Python literals (strings, numbers, True/False/None, lists, dicts) are taken; anything
 * computed (`var('x')`, `env_var(...)`, expressions) cannot be known before dbt runs and is left out.
 */
export function readSqlConfig(sql: string): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const call = /\{\{-?\s*config\s*\(/g;
  for (let match = call.exec(sql); match; match = call.exec(sql)) {
    const parser = new LiteralParser(sql, match.index + match[0].length);
    Object.assign(config, parser.keywordArguments());
  }
  return config;
}

const UNKNOWN = Symbol('unknown');
type Value = unknown;

class LiteralParser {
  constructor(
    private readonly text: string,
    private pos: number,
  ) {}

  keywordArguments(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.space();
      if (this.eat(')') || this.pos >= this.text.length) return out;
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.pos))?.[0];
      if (name === undefined) {
        this.skipArgument();
        continue;
      }
      this.pos += name.length;
      this.space();
      if (!this.eat('=')) {
        // A positional argument (or an expression starting with a name): nothing declared here.
        this.skipArgument();
        continue;
      }
      const start = this.pos;
      const value = this.value();
      this.space();
      const ends = this.peek() === ',' || this.peek() === ')';
      if (value !== UNKNOWN && ends) out[name] = value;
      else {
        this.pos = start;
        this.skipArgument();
        continue;
      }
      this.eat(',');
    }
  }

  private value(): Value {
    this.space();
    const c = this.peek();
    if (c === "'" || c === '"') return this.string(c);
    if (c === '[' || c === '(') return this.list(c === '[' ? ']' : ')');
    if (c === '{') return this.dict();
    const number = /^-?\d+(\.\d+)?/.exec(this.text.slice(this.pos))?.[0];
    if (number !== undefined) {
      this.pos += number.length;
      return Number(number);
    }
    const word = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(this.text.slice(this.pos))?.[0];
    if (word === undefined) return UNKNOWN;
    this.pos += word.length;
    this.space();
    if (this.peek() === '(') return UNKNOWN; // a call: var(), env_var(), …
    const constants: Record<string, unknown> = { True: true, true: true, False: false, false: false, None: null, none: null };
    return word in constants ? constants[word] : UNKNOWN;
  }

  private string(quote: string): Value {
    let out = '';
    for (this.pos++; this.pos < this.text.length; this.pos++) {
      const c = this.text[this.pos]!;
      if (c === '\\' && this.pos + 1 < this.text.length) out += this.text[++this.pos];
      else if (c === quote) {
        this.pos++;
        this.space();
        // 'a' ~ var('b') and similar concatenations are computed.
        return this.peek() === '~' || this.peek() === '+' ? UNKNOWN : out;
      } else out += c;
    }
    return UNKNOWN;
  }

  private list(close: string): Value {
    this.pos++;
    const out: unknown[] = [];
    let known = true;
    for (;;) {
      this.space();
      if (this.eat(close)) return known ? out : UNKNOWN;
      if (this.pos >= this.text.length) return UNKNOWN;
      const item = this.value();
      if (item === UNKNOWN) return UNKNOWN;
      out.push(item);
      this.space();
      if (!this.eat(',') && this.peek() !== close) known = false;
      if (!known) return UNKNOWN;
    }
  }

  private dict(): Value {
    this.pos++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.space();
      if (this.eat('}')) return out;
      const key = this.value();
      this.space();
      if (typeof key !== 'string' || !this.eat(':')) return UNKNOWN;
      const item = this.value();
      if (item === UNKNOWN) return UNKNOWN;
      out[key] = item;
      this.space();
      if (!this.eat(',') && this.peek() !== '}') return UNKNOWN;
    }
  }

  /** Moves past one argument, whatever it is, keeping brackets and strings balanced. */
  private skipArgument(): void {
    let depth = 0;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === "'" || c === '"') {
        this.string(c);
        continue;
      }
      if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) {
        if (depth === 0) return;
        depth--;
      } else if (c === ',' && depth === 0) {
        this.pos++;
        return;
      }
      this.pos++;
    }
  }

  private space(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  private peek(): string | undefined {
    return this.text[this.pos];
  }

  private eat(c: string): boolean {
    if (this.text[this.pos] !== c) return false;
    this.pos++;
    return true;
  }
}
