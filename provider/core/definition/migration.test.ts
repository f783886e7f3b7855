import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../unknown";
import { defineFields, OWNERSHIP } from "./kind";
import { type Migration, retiredInputs, retiredWarning, SCHEMA_VERSION, schemaVersionOf, upgradeProps, upgradeState, versionOfState } from "./migration";
import { inPlace, optional, v } from "./values";

// Three releases of one made-up kind: 0.3.0 renamed `timeout` (seconds) to `actionTimeout` (a
// duration) and gave older state the `mode` it had always run with; 0.4.0 split `image` into
// `repository` and `tag`, and counted `diskGb` in MiB as `diskMb`.
const MIGRATIONS: Migration[] = [
  {
    release: "0.3.0",
    why: "durations everywhere",
    steps: [
      { rename: "timeout", to: "actionTimeout", convert: (s) => `${Number(s) / 60}m` },
      { default: "mode", value: "classic" },
    ],
  },
  {
    release: "0.4.0",
    why: "images by parts",
    steps: [
      { split: "image", into: (image) => ({ repository: String(image).split(":")[0], tag: String(image).split(":")[1] }) },
      { rename: "diskGb", to: "diskMb", convert: (gb) => Number(gb) * 1024 },
    ],
  },
];

const KIND = { type: "demo:Thing", migrations: MIGRATIONS };

describe("state schema versions", () => {
  it("numbers a kind's schema by its migrations, and reads state without a version as version 0", () => {
    expect(schemaVersionOf(undefined)).toBe(0);
    expect(schemaVersionOf(MIGRATIONS)).toBe(2);
    expect(versionOfState({ name: "a" })).toBe(0);
    expect(versionOfState({ name: "a", [SCHEMA_VERSION]: 1 })).toBe(1);
    expect(versionOfState({ name: "a", [SCHEMA_VERSION]: "2" })).toBe(0);
  });

  it("upgrades version-0 state through every migration: renamed, converted, split, defaulted; nothing else touched", () => {
    const old = { name: "web", timeout: 1800, image: "nginx:1.27", diskGb: 2, labels: { a: "b" } };
    expect(upgradeState(KIND, old)).toEqual({
      name: "web",
      actionTimeout: "30m",
      mode: "classic",
      repository: "nginx",
      tag: "1.27",
      diskMb: 2048,
      labels: { a: "b" },
      [SCHEMA_VERSION]: 2,
    });
  });

  it("applies only the migrations after the state's version", () => {
    // Written at version 1: its actionTimeout is already a duration, its mode already chosen.
    const v1 = { name: "web", actionTimeout: "45m", mode: "fast", image: "redis:7", diskGb: 1, [SCHEMA_VERSION]: 1 };
    expect(upgradeState(KIND, v1)).toEqual({ name: "web", actionTimeout: "45m", mode: "fast", repository: "redis", tag: "7", diskMb: 1024, [SCHEMA_VERSION]: 2 });
  });

  it("leaves state of the current version as it is (a migration never runs twice)", () => {
    const current = { name: "web", actionTimeout: "30m", diskMb: 2048, [SCHEMA_VERSION]: 2 };
    expect(upgradeState(KIND, current)).toEqual(current);
    expect(upgradeState(KIND, upgradeState(KIND, { name: "web", diskGb: 2 }))).toEqual({ name: "web", mode: "classic", diskMb: 2048, [SCHEMA_VERSION]: 2 });
  });

  it("lets a default stand aside for a value older state has, and an absent field stay absent", () => {
    expect(upgradeState(KIND, { mode: "fast" })).toEqual({ mode: "fast", [SCHEMA_VERSION]: 2 });
  });

  it("takes the version from the caller where the engine keeps it apart (OpenTofu's schema_version)", () => {
    expect(upgradeProps(KIND.type, MIGRATIONS, { diskGb: 3 }, 1)).toEqual({ diskMb: 3072, [SCHEMA_VERSION]: 2 });
  });

  it("passes the preview's unknown value through a conversion unconverted", () => {
    expect(upgradeState(KIND, { timeout: UNKNOWN, image: UNKNOWN })).toEqual({ actionTimeout: UNKNOWN, mode: "classic", [SCHEMA_VERSION]: 2 });
  });

  it("refuses state written by a newer release, naming the kind and both versions, so nothing it added is lost", () => {
    expect(() => upgradeState(KIND, { name: "web", [SCHEMA_VERSION]: 3 })).toThrow(
      "demo:Thing: this state was written by a newer Clusterform (state schema version 3; this release reads up to 2): use that release or a later one, so that no field it added is lost",
    );
  });

  it("writes no version for a kind that never migrated, and removes a stray one", () => {
    expect(upgradeState({ type: "demo:Plain" }, { name: "a" })).toEqual({ name: "a" });
    expect(upgradeState({ type: "demo:Plain" }, { name: "a", [SCHEMA_VERSION]: 0 })).toEqual({ name: "a" });
  });
});

describe("a program still writing a retired input", () => {
  const current = new Set(["name", "actionTimeout", "mode", "repository", "tag", "diskMb"]);

  it("is read as the state is, each retired name listed with what to write instead", () => {
    const { news, retired } = retiredInputs(MIGRATIONS, current, { name: "web", timeout: 600, image: "nginx:1.27" });
    expect(news).toEqual({ name: "web", actionTimeout: "10m", repository: "nginx", tag: "1.27" });
    expect(retired).toEqual([
      { name: "timeout", instead: 'actionTimeout: "10m"', release: "0.3.0", why: "durations everywhere" },
      { name: "image", instead: 'repository: "nginx", tag: "1.27"', release: "0.4.0", why: "images by parts" },
    ]);
    expect(retiredWarning("demo:Thing", retired[0])).toBe(
      'demo:Thing: the input "timeout" was replaced in 0.3.0 (durations everywhere); this run reads it as actionTimeout: "10m": write that instead, a later release will refuse the old name',
    );
  });

  it("gives a program's own defaults no say: only renamed and split fields move, and a program without them is untouched", () => {
    const program = { name: "web", actionTimeout: "5m" };
    expect(retiredInputs(MIGRATIONS, current, program)).toEqual({ news: program, retired: [] });
  });

  it("never moves a field today's definition has again under its old name", () => {
    const reused = new Set([...current, "timeout"]);
    expect(retiredInputs(MIGRATIONS, reused, { timeout: 5 })).toEqual({ news: { timeout: 5 }, retired: [] });
  });
});

describe("defineFields with migrations", () => {
  const spec = (migrations: Migration[]) => ({
    type: "demo:Thing",
    description: "a thing",
    inputs: {
      actionTimeout: optional(v.string(), { description: "t", policy: inPlace("Update") }),
      mode: optional(v.oneOf(["classic", "fast"]), { description: "m", policy: inPlace("Update") }),
    },
    hidden: OWNERSHIP,
    outputs: { status: { type: { kind: "string" as const }, description: "s" } },
    timeouts: { create: "1m", update: "1m", delete: "1m" },
    migrations,
  });

  it("gives the kind the schema version of its migrations", () => {
    expect(defineFields(spec([MIGRATIONS[0]])).schemaVersion).toBe(1);
    expect(defineFields({ ...spec([]), migrations: undefined }).schemaVersion).toBe(0);
  });

  it("refuses a migration naming a field wrongly, before any state is read", () => {
    expect(() => defineFields(spec([{ release: "0.3.0", why: "w", steps: [{ rename: "timeout", to: "actionTimout" }] }]))).toThrow(
      "demo:Thing: the 0.3.0 migration names fields wrongly: actionTimout is no field",
    );
    expect(() => defineFields(spec([{ release: "0.3.0", why: "w", steps: [{ rename: "mode", to: "actionTimeout" }] }]))).toThrow(
      "demo:Thing: the 0.3.0 migration names fields wrongly: mode is still a field",
    );
    expect(() => defineFields(spec([{ release: "0.3.0", why: "w", steps: [{ default: "speed", value: 1 }] }]))).toThrow("speed is no field");
    expect(() => defineFields(spec([{ release: "0.3.0", why: "w", steps: [{ convert: "status", with: String }] }]))).not.toThrow();
  });
});
