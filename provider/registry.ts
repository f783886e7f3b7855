import type * as pulumi from "@pulumi/pulumi";

/** What every resource type implements: the methods of Pulumi's dynamic provider. */
export interface ResourceHandler {
  configure(config: { get(key: string): string | undefined }): Promise<void>;
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult>;
  /**
   * Deletes the object, or keeps it when it is the one the state keeps for the same resource
   * (replacement.ts, KeptObjects): then it answers why, having warned on the resource; the
   * OpenTofu adapter turns the answer into its own warning diagnostic, the Pulumi engines drop it.
   */
  delete(id: string, props: Record<string, unknown>): Promise<{ kept: string } | undefined>;
  /**
   * The object's identity on the platform as the inputs (definition keys) determine it, or
   * undefined while unknown; pure. The operations plan reads it to tell a native replacement's
   * order (provider/cli/plan/replace-order.ts).
   */
  identity?(inputs: Record<string, unknown>): string | undefined;
}

// Handlers load lazily: a program with one cma-ssh cluster never loads the other platforms' code.
const loaders: Record<string, () => ResourceHandler> = {};
const loaded = new Map<string, ResourceHandler>();

/** Registers the loader of a resource type's handler. */
export function registerHandler(type: string, load: () => ResourceHandler): void {
  loaders[type] = load;
}

/** The handler of a resource type; a type this release does not know is a clear error. */
export function handlerFor(type: string): ResourceHandler {
  let handler = loaded.get(type);
  if (!handler) {
    const load = loaders[type];
    if (!load) {
      const known = Object.keys(loaders).sort().join(", ") || "none";
      throw new Error(`clusterform: unknown resource type "${type}"; this release knows: ${known}`);
    }
    handler = load();
    loaded.set(type, handler);
  }
  return handler;
}
