import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UNKNOWN, validateInputs } from "../../core/validation";
import { userLabels } from "./shared-schema";
import { completeName, readDeadline, timeouts } from "../fields";

const DERIVED = /^web-[0-9a-f]{7}$/;

// One replace field, `size`, seeds the derived name.
const sizeField = { seeds: ["size"] };
interface Inputs {
  name?: string;
  autoNamed?: boolean;
  owner: string;
  resourceName: string;
  [field: string]: unknown;
}
const named = (extra: Record<string, unknown> = {}): Inputs => ({ owner: "owner-1", resourceName: "web", size: 1, ...extra });

describe("completeName", () => {
  it("keeps a user-chosen name as given and marks it as not derived", () => {
    const olds = { name: "web-abc1234", autoNamed: true, owner: "owner-1", size: 1 };
    expect(completeName(olds, named({ name: "my-web" }), sizeField)).toEqual(named({ name: "my-web", autoNamed: false }));
  });

  it("derives the resource name plus a 7-hex hash when no name is given", () => {
    const result = completeName({}, named(), sizeField);
    expect(result).toEqual(named({ name: expect.stringMatching(DERIVED), autoNamed: true }));
  });

  it("derives the same name again for the same owner and replace fields", () => {
    expect(completeName({}, named(), sizeField).name).toBe(completeName({}, named(), sizeField).name);
  });

  it.each<[string, Record<string, unknown>]>([
    ["a replace field", { size: 2 }],
    ["the owner", { owner: "owner-2" }],
  ])("derives a different name when %s changes", (_, change) => {
    expect(completeName({}, named(change), sizeField).name).not.toBe(completeName({}, named(), sizeField).name);
  });

  it("ignores fields that do not force replacement", () => {
    expect(completeName({}, named({ version: "1.2.3" }), sizeField).name).toBe(completeName({}, named(), sizeField).name);
  });

  it.each<[string, unknown]>([
    ["the whole field", UNKNOWN],
    ["a value inside it", { nested: [1, UNKNOWN] }],
  ])("makes the name unknown while %s of a replace field is unknown", (_, size) => {
    const olds = { name: "web-abc1234", autoNamed: true, owner: "owner-1", size: 1 };
    expect(completeName(olds, named({ size }), sizeField)).toEqual(named({ size, name: UNKNOWN, autoNamed: true }));
  });

  it("keeps an old derived name while the replace fields stay the same, even one derived differently", () => {
    const olds = { name: "web-legacy0", autoNamed: true, owner: "owner-1", size: 1 };
    expect(completeName(olds, named(), sizeField)).toEqual(named({ name: "web-legacy0", autoNamed: true }));
  });

  it.each<[string, Record<string, unknown>]>([
    ["a replace field changed", { name: "web-legacy0", autoNamed: true, owner: "owner-1", size: 2 }],
    ["the owner changed", { name: "web-legacy0", autoNamed: true, owner: "owner-0", size: 1 }],
    ["the old name was the user's", { name: "web-legacy0", autoNamed: false, owner: "owner-1", size: 1 }],
  ])("derives a fresh name instead of keeping the old one when %s", (_, olds) => {
    const result = completeName(olds, named(), sizeField);
    expect(result.name).toMatch(DERIVED);
    expect(result.name).toBe(completeName({}, named(), sizeField).name);
  });
});

const labelsSchema = z.object({ labels: userLabels() }).strict();
const RESERVED = 'labels key "clusterform.dev/owner" is reserved: Clusterform sets clusterform.dev/owner to mark what it created, got';

describe("userLabels", () => {
  it.each<[string, Record<string, unknown>]>([
    ["ordinary labels", { app: "web", "example.com/tier": "" }],
    ["a look-alike key in another domain", { "clusterform.dev/owner-team": "x", "other.dev/owner": "y" }],
    ["an unknown value", { app: UNKNOWN }],
    ["an unknown map", UNKNOWN as unknown as Record<string, unknown>],
  ])("accepts %s", (_, labels) => {
    expect(validateInputs(labelsSchema, { labels })).toEqual({ inputs: { labels }, failures: [] });
  });

  it.each<[string, unknown, string]>([
    ["a plain value", "me", `${RESERVED} "me"`],
    ["an empty value", "", `${RESERVED} ""`],
    ["an unknown value", UNKNOWN, `${RESERVED} "${UNKNOWN}"`],
  ])("rejects the reserved ownership key with %s", (_, value, reason) => {
    expect(validateInputs(labelsSchema, { labels: { app: "web", "clusterform.dev/owner": value } })).toEqual({
      failures: [{ property: 'labels["clusterform.dev/owner"]', reason }],
    });
  });
});

const timeoutsSchema = z.object({ timeouts: timeouts() }).strict();
const DURATION = 'must be a duration such as "90s", "20m" or "1h30m" (units ms, s, m, h), got';

describe("timeouts", () => {
  it.each<[string, unknown, unknown]>([
    ["nothing", undefined, undefined],
    ["all three kinds", { create: "30m", update: "1h30m", delete: "90s" }, { create: "30m", update: "1h30m", delete: "90s" }],
    ["padded durations, trimmed", { create: " 2s " }, { create: "2s" }],
    ["an unknown object", UNKNOWN, UNKNOWN],
    ["an unknown field", { delete: UNKNOWN }, { delete: UNKNOWN }],
  ])("accepts %s", (_, given, stored) => {
    expect(validateInputs(timeoutsSchema, { timeouts: given })).toEqual({ inputs: { timeouts: stored }, failures: [] });
  });

  it.each<[string, unknown, string, string]>([
    ["words", { create: "soon" }, "timeouts.create", `timeouts.create ${DURATION} "soon"`],
    ["a number", { update: 20 }, "timeouts.update", `timeouts.update ${DURATION} 20`],
    ["a kind that does not exist", { read: "1s" }, "timeouts.read", "timeouts.read is not a known field"],
    ["a single string", "30m", "timeouts", 'timeouts must be an object, got "30m"'],
  ])("rejects %s", (_, given, property, reason) => {
    expect(validateInputs(timeoutsSchema, { timeouts: given })).toEqual({ failures: [{ property, reason }] });
  });
});

describe("readDeadline", () => {
  const defaults = { create: "30m", update: "45m", delete: "30m" };

  it.each([
    ["no timeouts: the 5 minute read cap, not the 45 minute update default", {}, 300_000],
    ["a shorter update timeout bounds the read", { timeouts: { update: "90s" } }, 90_000],
    ["a longer update timeout is capped at 5 minutes", { timeouts: { update: "2h" } }, 300_000],
  ])("%s", (_what, props, expected) => {
    expect(readDeadline(props, defaults).timeoutMs).toBe(expected);
  });
});
