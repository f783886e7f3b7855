/**
 * The stable entry point every `__provider` text requires (`clusterform/provider`). State written by
 * any release calls these functions, so their names and arguments never change: texts written since
 * the SDK writes its own (sdk/internal/resource.ts) call {@link dynamicProvider}; the serialized
 * shims of earlier releases (sdk/internal/shim.ts) call the per-method functions, each of which
 * takes the resource type first and routes to that resource's handler.
 */
import type * as pulumi from "@pulumi/pulumi";
import { reportedOnce } from "./engines/dynamic/report-once";
import { handlerFor } from "./registry";
import "./kinds";

type Config = { get(key: string): string | undefined };

/** Receives the stack configuration; every handler reads it at call time. */
export function configure(type: string, req: { config: Config }): Promise<void> {
  return handlerFor(type).configure(req.config);
}

/** Validates and normalizes inputs; never calls the platform. */
export function check(type: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
  return reportedOnce(() => handlerFor(type).check(olds, news));
}

/**
 * Plans the change; never calls the platform. A change's planned platform calls go on the
 * resource's row (provider/core/plan/announce.ts, loaded only when something changes).
 */
export function diff(type: string, id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
  return reportedOnce(async () => {
    const result = await handlerFor(type).diff(id, olds, news);
    if (result.changes) await (require("./core/plan/announce") as typeof import("./core/plan/announce")).announcePlan(type, id, olds, news, result);
    return result;
  });
}

/** Creates the object on the platform and waits until it is ready. */
export function create(type: string, inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
  return handlerFor(type).create(inputs);
}

/** Reads the object's live state (refresh). */
export function read(type: string, id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
  return reportedOnce(() => handlerFor(type).read(id, props));
}

/** Maps the diff onto the platform's own operations and waits for them. */
export function update(type: string, id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> {
  return handlerFor(type).update(id, olds, news);
}

/** Deletes the object and waits until it is gone (or keeps it, with a warning on the resource: KeptObjects). */
async function remove(type: string, id: string, props: Record<string, unknown>): Promise<void> {
  await reportedOnce(() => handlerFor(type).delete(id, props));
}

export { remove as delete };

/**
 * The provider object of one resource type, as Pulumi's dynamic provider host wants it: what the
 * `__provider` text of every resource since the SDK writes its own returns from `handler()`. Loads
 * nothing: the type's handler loads at its first call.
 */
export function dynamicProvider(type: string): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => configure(type, req),
    check: (olds, news) => check(type, olds, news),
    diff: (id, olds, news) => diff(type, id, olds, news),
    create: (inputs) => create(type, inputs),
    read: (id, props) => read(type, id, props),
    update: (id, olds, news) => update(type, id, olds, news),
    delete: (id, props) => remove(type, id, props),
  };
}
