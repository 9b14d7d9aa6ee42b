import type { ConditionExpr } from '../model.js';

/**
 * Parses the `if:` of an access policy condition. Cube evaluates it as a Python expression over the
 * security context; this reads the safe subset that such conditions use — references to
 * `securityContext.*` / `userAttributes.*`, literals, lists, comparisons (`==`, `!=`, `<`, `<=`, `>`,
 * `>=`, `in`, `not in`) and `and` / `or` / `not` — and rejects anything else with a message, so that a
 * condition is never half understood.
 */
export function parseCondition(text: string): ConditionExpr | string {
  const trimmed = text.trim();
  const inner = trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed.slice(1, -1) : trimmed;
  let tokens: Token[];
  try {
    tokens = tokenize(inner);
  } catch (e) {
    return (e as Error).message;
  }
  const parser = new ConditionParser(tokens);
  try {
    const expr = parser.orExpr();
    if (!parser.done()) return `unexpected '${parser.peek()?.text ?? ''}'`;
    return expr;
  } catch (e) {
    return (e as Error).message;
  }
}

interface Token {
  readonly kind: 'name' | 'string' | 'number' | 'op';
  readonly text: string;
  readonly value?: unknown;
}

const OPERATORS = ['==', '!=', '<=', '>=', '<', '>', '(', ')', '[', ']', ',', '.'];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const quote = rest[0];
    if (quote === "'" || quote === '"') {
      const end = rest.indexOf(quote, 1);
      if (end < 0) throw new Error('unterminated string');
      tokens.push({ kind: 'string', text: rest.slice(0, end + 1), value: rest.slice(1, end) });
      i += end + 1;
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(rest);
    if (number) {
      tokens.push({ kind: 'number', text: number[0], value: Number(number[0]) });
      i += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (name) {
      tokens.push({ kind: 'name', text: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (!op) throw new Error(`unexpected '${rest[0] ?? ''}'`);
    tokens.push({ kind: 'op', text: op });
    i += op.length;
  }
  return tokens;
}

const LITERALS: Record<string, unknown> = { True: true, False: false, None: null, true: true, false: false, null: null };
const ROOTS: Record<string, 'securityContext' | 'userAttributes'> = {
  securityContext: 'securityContext',
  security_context: 'securityContext',
  SECURITY_CONTEXT: 'securityContext',
  userAttributes: 'userAttributes',
  user_attributes: 'userAttributes',
};
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);

class ConditionParser {
  private position = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  done(): boolean {
    return this.position >= this.tokens.length;
  }
  peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset];
  }
  private next(): Token {
    const token = this.tokens[this.position++];
    if (!token) throw new Error('the expression ends too early');
    return token;
  }
  private accept(text: string): boolean {
    if (this.peek()?.text !== text) return false;
    this.position++;
    return true;
  }
  private expect(text: string): void {
    if (!this.accept(text)) throw new Error(`expected '${text}'`);
  }

  orExpr(): ConditionExpr {
    const operands = [this.andExpr()];
    while (this.accept('or')) operands.push(this.andExpr());
    return operands.length === 1 ? (operands[0] as ConditionExpr) : { kind: 'or', operands };
  }
  private andExpr(): ConditionExpr {
    const operands = [this.notExpr()];
    while (this.accept('and')) operands.push(this.notExpr());
    return operands.length === 1 ? (operands[0] as ConditionExpr) : { kind: 'and', operands };
  }
  private notExpr(): ConditionExpr {
    if (this.accept('not')) return { kind: 'not', operand: this.notExpr() };
    return this.comparison();
  }
  private comparison(): ConditionExpr {
    const left = this.atom();
    const token = this.peek();
    if (token && COMPARISONS.has(token.text)) {
      this.position++;
      return { kind: 'compare', op: token.text as '==', left, right: this.atom() };
    }
    if (this.accept('in')) return { kind: 'compare', op: 'in', left, right: this.atom() };
    if (token?.text === 'not' && this.peek(1)?.text === 'in') {
      this.position += 2;
      return { kind: 'compare', op: 'not in', left, right: this.atom() };
    }
    return left;
  }
  private atom(): ConditionExpr {
    const token = this.next();
    if (token.kind === 'string' || token.kind === 'number') return { kind: 'literal', value: token.value };
    if (token.text === '(') {
      const inner = this.orExpr();
      this.expect(')');
      return inner;
    }
    if (token.text === '[') {
      const items: ConditionExpr[] = [];
      while (!this.accept(']')) {
        items.push(this.orExpr());
        if (!this.accept(',')) {
          this.expect(']');
          break;
        }
      }
      return { kind: 'list', items };
    }
    if (token.kind === 'name' && token.text in LITERALS) return { kind: 'literal', value: LITERALS[token.text] };
    const root = token.kind === 'name' ? ROOTS[token.text] : undefined;
    if (!root) throw new Error(`'${token.text}' is not supported: conditions can read securityContext.* and userAttributes.*`);
    const path: string[] = [];
    while (this.accept('.')) {
      const part = this.next();
      if (part.kind !== 'name') throw new Error(`expected a name after '.'`);
      path.push(part.text);
    }
    if (this.peek()?.text === '(') throw new Error('function calls are not supported in conditions');
    return { kind: 'ref', root, path };
  }
}
