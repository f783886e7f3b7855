import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type LocalControlPlane, startLocalControlPlane } from "../../emulator/server";
import { makeDataDir, removeDataDirs } from "../../emulator/testing";
import { workDir } from "../harness/paths";
import { realToken } from "../harness/real-senlin";
import { covers, type KnownDifference, readKnownDifferences } from "./parity/known-differences";
import { type Difference, diff, shapeOf } from "./parity/normalize";
import { type Observation, ScenarioRun } from "./parity/runner";
import { SCENARIOS, type Step } from "./parity/scenarios";

// One set of Senlin scenarios against the real Senlin 14 (started once for this project by
// global-setup.ts) and against the local plane, compared after normalising ids and times: every
// difference must be listed, with its reason, in docs/local-plane-fidelity.md, and every listed
// difference must still be seen (a fixed one is taken off the list).

let plane: LocalControlPlane;
const real = inject("realSenlin");
const differences: Difference[] = [];
let known: KnownDifference[];

async function planeToken(url: string): Promise<string> {
  const response = await fetch(`${url}/v3/auth/tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      auth: {
        identity: { methods: ["password"], password: { user: { name: "admin", domain: { name: "Default" }, password: "admin" } } },
        scope: { project: { name: "admin", domain: { name: "Default" } } },
      },
    }),
  });
  return response.headers.get("x-subject-token") ?? "";
}

function compared(step: Step, observed: Observation): unknown {
  const o = structuredClone(observed);
  for (const path of step.unordered ?? []) {
    const keys = path.split(".");
    const parent = keys.slice(0, -1).reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o) as Record<string, unknown> | undefined;
    const list = parent?.[keys.at(-1)!];
    if (Array.isArray(list)) parent![keys.at(-1)!] = [...list].sort();
  }
  if (step.compare === "status") return { status: o.status };
  if (step.compare === "shape") return { status: o.status, headers: o.headers, body: shapeOf(o.body) };
  return o;
}

/** Registers the parity scenarios and the check of the list of differences, with their plane (real-senlin.test.ts calls it). */
export function parityScenarios(): void {
  beforeAll(async () => {
    known = readKnownDifferences();
    // Time scale 0.1: the plane's actions take a tenth of their simulated durations.
    plane = await startLocalControlPlane({ port: 0, dataDir: makeDataDir(), timeScale: 0.1 });
  });

  afterAll(async () => {
    await plane?.close();
    removeDataDirs();
    // Every difference seen, listed or not, for whoever updates the table in the docs.
    mkdirSync(workDir(), { recursive: true });
    writeFileSync(path.join(workDir(), "senlin-parity-differences.json"), JSON.stringify(differences, null, 1));
  });

  describe("Senlin: the local plane against the real Senlin 14", () => {
    for (const scenario of SCENARIOS) {
      // Scenarios use objects of their own names: they run side by side, on both servers at once.
      it.concurrent(`answers scenario "${scenario.name}" as the real server does, or as listed`, async () => {
        const onReal = new ScenarioRun({ name: "real", senlinUrl: real.senlinUrl, token: await realToken(real.keystoneUrl, real.user, real.password, real.project) });
        const onPlane = new ScenarioRun({ name: "plane", senlinUrl: plane.url, token: await planeToken(plane.url) });
        const [r, p] = await Promise.all([onReal.scenario(scenario), onPlane.scenario(scenario)]);
        const found = scenario.steps.flatMap((step) =>
          diff("", compared(step, r.get(step.name)!), compared(step, p.get(step.name)!)).map((d) => ({ key: `${scenario.name} / ${step.name} / ${d.path.slice(1)}`, real: d.real, plane: d.plane })),
        );
        differences.push(...found);
        const unlisted = found.filter((d) => !known.some((row) => covers(row, d)));
        expect(unlisted, "differences not listed in docs/local-plane-fidelity.md").toEqual([]);
      });
    }
  });

  describe("Senlin: the list of differences in docs/local-plane-fidelity.md", () => {
    it("lists no difference that is no longer seen", () => {
      const stale = known.filter((row) => !differences.some((d) => covers(row, d)));
      expect(stale.map((row) => `${row.scenario} / ${row.step} / ${row.field}`)).toEqual([]);
    });
  });
}
