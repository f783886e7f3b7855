/**
 * A kind's platform calls by name: each name maps to itself, with its literal type, so a field
 * policy, a planner and an executor table name a call by the one constant (issue 28).
 */
export type Calls<N extends string = string> = { readonly [K in N]: K };

/** The names of a set of calls, as a union: `CallOf<typeof NODE_POOL_CALLS>`. */
export type CallOf<Cs extends Calls> = Cs[keyof Cs];

/**
 * Two calls still undecided, as a plan lists them while the value that picks one is unknown
 * (`CreateNodes|RemoveNodes` for a size known only at `up`). An update never meets one: every value
 * is known by then, so no executor carries one out.
 */
export type Undecided<C extends string> = `${C}|${C}`;

/**
 * Declares calls, each name written here once and read everywhere else as a property:
 * `defineCalls("AddNodePool", "ScaleNodePool").ScaleNodePool` is `"ScaleNodePool"`, typed so.
 * Keys keep the order given (an executor table's error lists calls in it).
 * @throws Error naming a call given twice.
 */
export function defineCalls<const N extends readonly string[]>(...names: N): Calls<N[number]> {
  return extendCalls({}, ...names);
}

/**
 * `base` plus further calls: a kind declares the calls its update makes, then extends them with
 * those only create and delete make.
 * @throws Error naming a call given twice or already in `base`.
 */
export function extendCalls<B extends Calls, const N extends readonly string[]>(base: B, ...names: N): B & Calls<N[number]> {
  const calls: Record<string, string> = { ...base };
  for (const name of names) {
    if (Object.hasOwn(calls, name)) throw new Error(`defineCalls: ${name} is declared twice`);
    calls[name] = name;
  }
  return Object.freeze(calls) as B & Calls<N[number]>;
}

/**
 * A field policy's operation that one of several calls carries out, named as the reference shows
 * it: `eitherOf(JOB_CALLS.StopJob, JOB_CALLS.StartJob)` is `StopJob/StartJob`.
 */
export function eitherOf(...calls: readonly string[]): string {
  return calls.join("/");
}

/** Two calls still undecided ({@link Undecided}), e.g. `undecided(CALLS.CreateNodes, CALLS.RemoveNodes)`. */
export function undecided<const A extends string, const B extends string>(a: A, b: B): `${A}|${B}` {
  return `${a}|${b}`;
}
