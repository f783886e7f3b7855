import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type LocalControlPlane, startLocalControlPlane } from "../../emulator/server";
import { makeDataDir, removeDataDirs } from "../../emulator/testing";
import { workDir } from "../harness/paths";
import { realToken } from "../harness/real-senlin";
import { covers, type KnownDifference, readKnownDifferences } from "./parity/known-differences";
import { compared } from "./parity/compare";
import { type Difference, diff } from "./parity/normalize";
import { type Observation, ScenarioRun } from "./parity/runner";
import { SCENARIOS } from "./parity/scenarios";

// One set of Senlin scenarios against the real Senlin 14 (started once for this project by
// global-setup.ts) and against the local plane, compared after normalising ids and times (and an
// action's lifecycle as parity/lifecycle.ts reduces it to what both servers are sure to show): every
// difference must be listed, with its reason, in docs/local-plane-fidelity.md, and every listed
// difference must still be seen (a fixed one is taken off the list).

let plane: LocalControlPlane;
const real = inject("realSenlin");
const differences: Difference[] = [];
/** Both servers' normalised observations of every step, for whoever reads a difference in context. */
const observations: { key: string; real: Observation; plane: Observation }[] = [];
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

/** Registers the parity scenarios and the check of the list of differences, with their plane (real-senlin.test.ts calls it). */
export function parityScenarios(): void {
  beforeAll(async () => {
    known = readKnownDifferences();
    // Time scale 1: the plane's actions take their whole simulated durations, so a cluster action
    // waits for its node actions long enough to be seen (parity/lifecycle.ts). It costs no time:
    // each scenario runs on both servers at once, and the real one is slower.
    plane = await startLocalControlPlane({ port: 0, dataDir: makeDataDir(), timeScale: 1 });
  });

  afterAll(async () => {
    await plane?.close();
    removeDataDirs();
    // Every difference seen, listed or not, for whoever updates the table in the docs.
    mkdirSync(workDir(), { recursive: true });
    writeFileSync(path.join(workDir(), "senlin-parity-differences.json"), JSON.stringify(differences, null, 1));
    writeFileSync(path.join(workDir(), "senlin-parity-observations.json"), JSON.stringify(observations, null, 1));
  });

  describe("Senlin: the local plane against the real Senlin 14", () => {
    for (const scenario of SCENARIOS) {
      // Scenarios use objects of their own names: they run side by side, on both servers at once.
      it.concurrent(`answers scenario "${scenario.name}" as the real server does, or as listed`, async () => {
        const onReal = new ScenarioRun({ name: "real", senlinUrl: real.senlinUrl, token: await realToken(real.keystoneUrl, real.user, real.password, real.project) });
        const onPlane = new ScenarioRun({ name: "plane", senlinUrl: plane.url, token: await planeToken(plane.url) });
        const [r, p] = await Promise.all([onReal.scenario(scenario), onPlane.scenario(scenario)]);
        for (const step of scenario.steps) observations.push({ key: `${scenario.name} / ${step.name}`, real: r.get(step.name)!, plane: p.get(step.name)! });
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
