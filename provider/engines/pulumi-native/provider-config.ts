import type { ConfigReader } from "../../core/config";
import { PACKAGE } from "./tokens";
import { unwrapSecrets } from "./secrets";

/** The parts of the engine's ConfigureRequest read here. */
export interface ConfigureRequestLike {
  getVariablesMap(): { entries(): Iterable<[string, string]> } | undefined;
  getArgs(): { toJavaScript(): Record<string, unknown> } | undefined;
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The provider's configuration as the handlers read it (`clusterform:<key>`, provider/core/config.ts),
 * from the engine's Configure request: the typed `args` (an explicit provider's inputs or the stack
 * config of the default provider, secrets wrapped) win over the legacy `variables`
 * (`clusterform:config:<key>` to a string). Environment fallbacks stay the handlers' own.
 */
export function configFromRequest(req: ConfigureRequestLike): ConfigReader {
  const values = new Map<string, string>();
  for (const [key, value] of req.getVariablesMap()?.entries() ?? []) {
    const prefix = `${PACKAGE}:config:`;
    if (key.startsWith(prefix)) values.set(`${PACKAGE}:${key.slice(prefix.length)}`, value);
  }
  const { plain } = unwrapSecrets(req.getArgs()?.toJavaScript());
  for (const [key, value] of Object.entries(plain)) {
    const v = text(value);
    if (v !== undefined) values.set(`${PACKAGE}:${key}`, v);
  }
  return { get: (key) => values.get(key) };
}
