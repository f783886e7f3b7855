import { invalidArgument } from "./validation";

/** One requirement of a Kubernetes label selector. */
type Requirement = (labels: Readonly<Record<string, string>>) => boolean;

/** A parsed label selector: true when every requirement holds. */
export type LabelSelector = (labels: Readonly<Record<string, string>>) => boolean;

const KEY = "[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?";
const VALUE = "([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?";

/** Each requirement form Kubernetes accepts, tried in order. */
const FORMS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => Requirement]> = [
  [new RegExp(`^(${KEY})\\s*!=\\s*(${VALUE})$`), (m) => (l) => l[m[1]] !== m[3]],
  [new RegExp(`^(${KEY})\\s*==?\\s*(${VALUE})$`), (m) => (l) => l[m[1]] === m[3]],
  [new RegExp(`^(${KEY})\\s+notin\\s+\\(([^)]*)\\)$`), (m) => notIn(m[1], m[3])],
  [new RegExp(`^(${KEY})\\s+in\\s+\\(([^)]*)\\)$`), (m) => inSet(m[1], m[3])],
  [new RegExp(`^!(${KEY})$`), (m) => (l) => !(m[1] in l)],
  [new RegExp(`^(${KEY})$`), (m) => (l) => m[1] in l],
];

function values(list: string): Set<string> {
  return new Set(list.split(",").map((v) => v.trim()));
}

function inSet(key: string, list: string): Requirement {
  const allowed = values(list);
  return (l) => key in l && allowed.has(l[key]);
}

function notIn(key: string, list: string): Requirement {
  const denied = values(list);
  return (l) => !(key in l) || !denied.has(l[key]);
}

/** Splits on commas outside parentheses: `a in (x,y),b` is two requirements. */
function splitRequirements(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    if (selector[i] === "(") depth++;
    else if (selector[i] === ")") depth--;
    else if (selector[i] === "," && depth === 0) {
      parts.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selector.slice(start));
  return parts.map((p) => p.trim());
}

/**
 * Parses a Kubernetes label selector (`env=prod,team!=ops,tier in (a,b),!legacy`); empty selects
 * everything.
 * @param field - the request field, for the error. @default "label_selector"
 * @throws ConnectError INVALID_ARGUMENT naming the requirement that does not parse.
 */
export function parseLabelSelector(selector: string, field = "label_selector"): LabelSelector {
  if (selector.trim() === "") return () => true;
  const requirements = splitRequirements(selector).map((part) => {
    for (const [pattern, build] of FORMS) {
      const match = pattern.exec(part);
      if (match) return build(match);
    }
    throw invalidArgument(field, selector, `requirement ${JSON.stringify(part)} is not key=value, key==value, key!=value, key in (v1,v2), key notin (v1,v2), key or !key`);
  });
  return (labels) => requirements.every((r) => r(labels));
}
