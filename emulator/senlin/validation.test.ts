import { z } from "zod";
import { describe, expect, it } from "vitest";
import { SenlinError } from "./errors";
import { intField, nameField, objectField, parseWith } from "./validation";

const body = z.strictObject({ name: nameField, min_size: intField(0).optional(), metadata: objectField.optional() });

function refusal(input: unknown): string {
  try {
    parseWith(body, input);
  } catch (error) {
    if (error instanceof SenlinError) return `${error.status} ${error.rawMessage}`;
    throw error;
  }
  return "accepted";
}

describe("parseWith: Senlin's request checking, the same for every route", () => {
  it("takes an explicit null as a field not given, and keeps nulls inside JSON fields", () => {
    expect(parseWith(body, { name: "web", min_size: null, metadata: { a: null } })).toEqual({ name: "web", metadata: { a: null } });
  });

  it("refuses a required field sent as null as missing", () => {
    expect(refusal({ name: null })).toBe("400 'name' is a required property");
  });

  it("accepts integers sent as strings and refuses what is not one", () => {
    expect(parseWith(body, { name: "web", min_size: "3" })).toEqual({ name: "web", min_size: 3 });
    expect(refusal({ name: "web", min_size: "three" })).toMatch(/^400 Invalid value for 'min_size': "three": /);
  });

  it("refuses unknown fields with jsonschema's wording", () => {
    expect(refusal({ name: "web", size: 3 })).toBe("400 Additional properties are not allowed ('size' was unexpected)");
    expect(refusal({ name: "web", size: 3, colour: "red" })).toBe("400 Additional properties are not allowed ('size', 'colour' were unexpected)");
  });
});
