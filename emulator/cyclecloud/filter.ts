/**
 * The subset of CycleCloud's node filter expressions (the `filter` of NodeManagementRequest) the
 * emulator understands. Anything else is rejected with 409, naming the position.
 *
 * | Form | Example | Meaning |
 * |---|---|---|
 * | `Attr === value`, `Attr == value` | `State === "Ready"` | the attribute equals the value (same type) |
 * | `Attr !== value`, `Attr != value` | `Template != "gpu"` | the attribute does not equal the value |
 * | `Attr < <= > >= value` | `Count >= 2` | ordering; both sides numbers or both strings |
 * | `Attr` | `KeepAlive` | the attribute is truthy |
 * | `a && b`, `a \|\| b`, `!a`, `( a )` | `State === "Ready" && !KeepAlive` | logic, `&&` binding tighter than `\|\|` |
 * | `Attr.Sub` | `Configuration.role === "x"` | a nested attribute; a missing one is `undefined` |
 *
 * Values: double- or single-quoted strings (with `\` escapes), numbers, `true`, `false`, `null`.
 * Either side of a comparison may be an attribute or a value.
 */
export type NodePredicate = (record: Readonly<Record<string, unknown>>) => boolean;

/** Thrown for a filter outside the supported subset. */
export class FilterError extends Error {}

type Token = { kind: "op" | "value" | "ident" | "end"; text: string; value?: unknown; at: number };

const OPERATORS = ["===", "!==", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")"];
const KEYWORDS: Readonly<Record<string, unknown>> = { true: true, false: false, null: null };

function readString(source: string, start: number): [string, number] {
  const quote = source[start];
  let text = "";
  for (let i = start + 1; i < source.length; i++) {
    const c = source[i];
    if (c === quote) return [text, i + 1];
    if (c === "\\" && i + 1 < source.length) {
      i += 1;
      text += source[i];
    } else {
      text += c;
    }
  }
  throw new FilterError(`unterminated string starting at position ${start}`);
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const space = /^\s+/.exec(rest);
    const number = /^-?\d+(\.\d+)?/.exec(rest);
    const ident = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest);
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (space) {
      i += space[0].length;
    } else if (source[i] === '"' || source[i] === "'") {
      const [text, next] = readString(source, i);
      tokens.push({ kind: "value", text, value: text, at: i });
      i = next;
    } else if (number) {
      tokens.push({ kind: "value", text: number[0], value: Number(number[0]), at: i });
      i += number[0].length;
    } else if (ident) {
      const isKeyword = ident[0] in KEYWORDS;
      tokens.push({ kind: isKeyword ? "value" : "ident", text: ident[0], value: KEYWORDS[ident[0]], at: i });
      i += ident[0].length;
    } else if (op) {
      tokens.push({ kind: "op", text: op, at: i });
      i += op.length;
    } else {
      throw new FilterError(`unexpected character "${source[i]}" at position ${i}`);
    }
  }
  tokens.push({ kind: "end", text: "end of filter", at: source.length });
  return tokens;
}

type Operand = (record: Readonly<Record<string, unknown>>) => unknown;

function attribute(path: string): Operand {
  const parts = path.split(".");
  return (record) => parts.reduce<unknown>((value, key) => (value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined), record);
}

function ordered(test: (a: number | string, b: number | string) => boolean): (a: unknown, b: unknown) => boolean {
  return (a, b) => (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string") ? test(a, b) : false;
}

const COMPARISONS: Readonly<Record<string, (a: unknown, b: unknown) => boolean>> = {
  "===": (a, b) => a === b,
  "==": (a, b) => a === b,
  "!==": (a, b) => a !== b,
  "!=": (a, b) => a !== b,
  "<": ordered((a, b) => a < b),
  "<=": ordered((a, b) => a <= b),
  ">": ordered((a, b) => a > b),
  ">=": ordered((a, b) => a >= b),
};

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): NodePredicate {
    const predicate = this.or();
    this.expect("end");
    return predicate;
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private accept(text: string): boolean {
    if (this.peek().kind === "op" && this.peek().text === text) {
      this.index += 1;
      return true;
    }
    return false;
  }

  private expect(kind: Token["kind"], text?: string): void {
    const token = this.peek();
    if (token.kind !== kind || (text !== undefined && token.text !== text)) {
      throw new FilterError(`expected ${text ?? (kind === "end" ? "end of filter" : kind)} at position ${token.at}, got "${token.text}"`);
    }
    this.index += 1;
  }

  private or(): NodePredicate {
    const parts = [this.and()];
    while (this.accept("||")) parts.push(this.and());
    return parts.length === 1 ? parts[0] : (r) => parts.some((p) => p(r));
  }

  private and(): NodePredicate {
    const parts = [this.unary()];
    while (this.accept("&&")) parts.push(this.unary());
    return parts.length === 1 ? parts[0] : (r) => parts.every((p) => p(r));
  }

  private unary(): NodePredicate {
    if (this.accept("!")) {
      const inner = this.unary();
      return (r) => !inner(r);
    }
    if (this.accept("(")) {
      const inner = this.or();
      this.expect("op", ")");
      return inner;
    }
    return this.comparison();
  }

  private operand(): Operand {
    const token = this.peek();
    if (token.kind === "ident") {
      this.index += 1;
      return attribute(token.text);
    }
    if (token.kind === "value") {
      this.index += 1;
      return () => token.value;
    }
    throw new FilterError(`expected an attribute or a value at position ${token.at}, got "${token.text}"`);
  }

  private comparison(): NodePredicate {
    const left = this.operand();
    const token = this.peek();
    const compare = token.kind === "op" ? COMPARISONS[token.text] : undefined;
    if (!compare) return (r) => Boolean(left(r));
    this.index += 1;
    const right = this.operand();
    return (r) => compare(left(r), right(r));
  }
}

/** Compiles a filter expression into a predicate over node records; throws {@link FilterError}. */
export function compileFilter(source: string): NodePredicate {
  return new Parser(tokenize(source)).parse();
}
