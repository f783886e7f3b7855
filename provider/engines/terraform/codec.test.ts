import { decode, ExtData } from "@msgpack/msgpack";
import { describe, expect, it } from "vitest";
import { type CtyType, decodeMsgpack, decodeStateJson, encodeMsgpack, hasUnknown, type TfValue, typeOf, UNKNOWN_VALUE } from "./codec";

const OBJECT: CtyType = ["object", { name: "string", count: "number", labels: ["map", "string"], extra: "dynamic", tags: ["list", "string"] }];

describe("the Terraform value codec", () => {
  it("round-trips an object through msgpack, nulls and unknowns included", () => {
    const value = { name: "a", count: 3, labels: { team: "x" }, extra: { deep: [1, "two"] }, tags: null };
    expect(decodeMsgpack(encodeMsgpack(value, OBJECT), OBJECT)).toEqual(value);
    const unknown: TfValue = { name: UNKNOWN_VALUE, count: null, labels: null, extra: UNKNOWN_VALUE, tags: ["a", UNKNOWN_VALUE] };
    expect(decodeMsgpack(encodeMsgpack(unknown, OBJECT), OBJECT)).toEqual(unknown);
  });

  it("writes every attribute of an object (tofu refuses a missing one) and unknowns as extension 0", () => {
    const raw = decode(encodeMsgpack({ name: UNKNOWN_VALUE }, OBJECT)) as Record<string, unknown>;
    expect(Object.keys(raw).sort()).toEqual(["count", "extra", "labels", "name", "tags"]);
    expect(raw.name).toBeInstanceOf(ExtData);
    expect((raw.name as ExtData).type).toBe(0);
    expect(raw.count).toBeNull();
  });

  it("writes a dynamic value as [its type as JSON, its value], with the type HCL gives such a literal", () => {
    const raw = decode(encodeMsgpack({ extra: { a: 1, b: ["x"] } }, OBJECT)) as Record<string, unknown>;
    const [type, value] = raw.extra as [Uint8Array, unknown];
    expect(JSON.parse(new TextDecoder().decode(type))).toEqual(["object", { a: "number", b: ["tuple", ["string"]] }]);
    expect(value).toEqual({ a: 1, b: ["x"] });
  });

  it("reads numbers sent as decimal strings, and state JSON's dynamic values", () => {
    expect(decodeMsgpack(encodeMsgpack("12.5", "string"), "number")).toBe(12.5);
    const state = JSON.stringify({ name: "a", count: 1, labels: null, extra: { value: { k: true }, type: ["object", { k: "bool" }] }, tags: ["t"] });
    expect(decodeStateJson(state, OBJECT)).toEqual({ name: "a", count: 1, labels: null, extra: { k: true }, tags: ["t"] });
  });

  it("finds unknowns anywhere inside a value", () => {
    expect(hasUnknown({ a: [1, { b: UNKNOWN_VALUE }] })).toBe(true);
    expect(hasUnknown({ a: [1, { b: null }] })).toBe(false);
    expect(typeOf(null)).toBe("dynamic");
  });
});
