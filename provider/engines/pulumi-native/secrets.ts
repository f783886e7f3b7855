type Props = Record<string, unknown>;

/** The property-value signature the engine marks special values with (sdk/go/common/resource/sig). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The signature of a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;
}

function unwrap(value: unknown): { value: unknown; secret: boolean } {
  if (isSecret(value)) return { value: unwrap(value.value).value, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(unwrap);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(([k, v]) => [k, unwrap(v)] as const);
    return { value: Object.fromEntries(entries.map(([k, v]) => [k, v.value])), secret: entries.some(([, v]) => v.secret) };
  }
  return { value, secret: false };
}

/**
 * Removes the engine's secret wrappers (the plugin accepts secrets, so they arrive wrapped, at any
 * depth) and says which top-level properties held a secret anywhere inside: the handlers see plain
 * values, and {@link markSecret} wraps those properties again in what goes back to the engine.
 */
export function unwrapSecrets(props: Props | undefined): { plain: Props; secretKeys: Set<string> } {
  const plain: Props = {};
  const secretKeys = new Set<string>();
  for (const [key, value] of Object.entries(props ?? {})) {
    const u = unwrap(value);
    plain[key] = u.value;
    if (u.secret) secretKeys.add(key);
  }
  return { plain, secretKeys };
}

/** Wraps each of `keys` present in `props` as a secret: the engine encrypts it in the state. */
export function markSecret(props: Props, keys: Iterable<string>): Props {
  const out = { ...props };
  for (const key of keys) {
    if (key in out && out[key] !== undefined && !isSecret(out[key])) out[key] = { [SIG_KEY]: SECRET_SIG, value: out[key] };
  }
  return out;
}
