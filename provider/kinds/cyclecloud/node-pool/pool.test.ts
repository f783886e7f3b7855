import { describe, expect, it } from "vitest";
import { nextStep } from "./converge";
import { chooseSurplus, type PoolNode, poolNodes, requestIdBase, requestIdOf, targetNodes } from "./pool";

const node = (name: string, state: string): PoolNode => poolNodes([{ Name: name, NodeId: name, State: state }], [name])[0];

describe("targetNodes", () => {
  it.each<[string, { count?: number; coreCount?: number }, number, number]>([
    ["takes count as it is", { count: 3 }, 2, 3],
    ["rounds cores up to whole nodes", { coreCount: 5 }, 2, 3],
    ["gives zero nodes for zero cores", { coreCount: 0 }, 6, 0],
    ["gives exact nodes for a multiple", { coreCount: 12 }, 6, 2],
  ])("%s", (_, inputs, cores, expected) => {
    expect(targetNodes(inputs, cores)).toBe(expected);
  });
});

describe("chooseSurplus", () => {
  const pool = [node("a", "Ready"), node("b", "Preparing"), node("c", "Ready"), node("d", "Ready"), node("e", "Acquiring")];
  it.each<[number, string[]]>([
    [0, []],
    [1, ["e"]],
    [2, ["e", "b"]],
    [3, ["e", "b", "d"]],
    [5, ["e", "b", "d", "c", "a"]],
  ])("removes %i node(s): not Ready first, then the newest", (n, expected) => {
    expect(chooseSurplus(pool, n).map((x) => x.name)).toEqual(expected);
  });
});

describe("nextStep", () => {
  it.each<[string, PoolNode[], number, unknown]>([
    ["is done when every node is Ready and the size is right", [node("a", "Ready")], 1, { kind: "done" }],
    ["waits while a node is coming up", [node("a", "Preparing")], 1, { kind: "wait" }],
    ["adds the difference", [node("a", "Ready")], 3, { kind: "add", count: 2 }],
    ["removes exactly the surplus", [node("a", "Ready"), node("b", "Ready"), node("c", "Ready")], 1, { kind: "remove", nodes: [node("c", "Ready"), node("b", "Ready")], why: "surplus" }],
    ["removes failed nodes first, before adding their replacements", [node("a", "Ready"), node("b", "Failed")], 2, { kind: "remove", nodes: [node("b", "Failed")], why: "lost" }],
    ["adds replacements once failed nodes are gone", [node("a", "Ready")], 2, { kind: "add", count: 1 }],
    ["is done for an empty pool of size zero", [], 0, { kind: "done" }],
  ])("%s", (_, pool, target, expected) => {
    expect(nextStep(pool, target)).toEqual(expected);
  });
});

describe("request ids", () => {
  it("are stable for the same owner and fields, and differ when a replacing field changes", () => {
    const base = requestIdBase("0123456789abcdef", ["demo", "execute"]);
    expect(base).toMatch(/^clusterform-0123456789abcdef-[0-9a-f]{8}$/);
    expect(requestIdBase("0123456789abcdef", ["demo", "execute"])).toBe(base);
    expect(requestIdBase("0123456789abcdef", ["demo", "gpu"])).not.toBe(base);
    expect(requestIdOf(base, 3)).toBe(`${base}-3`);
  });
});
