import { describe, expect, it } from "vitest";
import * as entry from "./index";
import { type ResourceHandler, registerHandler } from "./registry";

const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;

const calls: { method: string; args: unknown[] }[] = [];

/** A handler that records each call and answers it with the method's name and its arguments. */
function recordingHandler(): ResourceHandler {
  const answer =
    (method: string) =>
    async (...args: unknown[]) => {
      calls.push({ method, args });
      return { method, args } as never;
    };
  return Object.fromEntries(METHODS.map((m) => [m, answer(m)])) as unknown as ResourceHandler;
}

describe("the clusterform/provider entry point", () => {
  registerHandler("test:Recorder", recordingHandler);

  it("keeps exporting every function a stored __provider text calls", () => {
    // Release 0.1.0 texts call the seven per-method functions; later texts call dynamicProvider.
    for (const name of [...METHODS, "dynamicProvider"]) expect(typeof (entry as Record<string, unknown>)[name], name).toBe("function");
  });

  it.each<[(typeof METHODS)[number], unknown[], unknown[]]>([
    ["configure", [{ config: { get: () => undefined } }], [{ get: expect.any(Function) }]],
    ["check", [{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 2 }]],
    ["diff", ["id", { a: 1 }, { a: 2 }], ["id", { a: 1 }, { a: 2 }]],
    ["create", [{ a: 2 }], [{ a: 2 }]],
    ["read", ["id", { a: 1 }], ["id", { a: 1 }]],
    ["update", ["id", { a: 1 }, { a: 2 }], ["id", { a: 1 }, { a: 2 }]],
    ["delete", ["id", { a: 1 }], ["id", { a: 1 }]],
  ])("dynamicProvider(type).%s calls that type's handler", async (method, args, received) => {
    const provider = entry.dynamicProvider("test:Recorder") as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const answer = await provider[method](...args);
    expect(calls.at(-1)).toEqual({ method, args: received });
    // The dynamic provider's delete answers nothing (a kept object is a warning on the resource).
    expect(answer).toEqual(method === "delete" ? undefined : { method, args: received });
  });

  it("builds a provider of an unknown type, whose first call names the type and the known ones", async () => {
    const provider = entry.dynamicProvider("nope:Thing");
    // The host awaits each call inside a try, so a synchronous throw reaches the engine all the same.
    await expect((async () => provider.create({}))()).rejects.toThrow(/unknown resource type "nope:Thing"; this release knows: .*cmassh:Cluster/);
  });
});
