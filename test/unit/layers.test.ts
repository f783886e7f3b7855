import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../harness/paths";

/**
 * The layer rules of .dependency-cruiser.cjs (npm run lint:layers) run on a small tree laid out like
 * the repository: each planted import must be reported under its rule, and the allowed ones must
 * not be. An import circle is reported once, on the edge where the cruise first closes it. The real tree is checked by the test command itself.
 */

/** Files of the tree (path -> source). Allowed imports first, then one plant per rule. */
const TREE: Record<string, string> = {
  // Allowed: every layer importing what it may.
  "common/node-version.ts": `import { version } from "node:process";\nexport const v = version;\n`,
  "proto/gen/api_pb.ts": "export const Api = 1;\n",
  "proto/gen/tfplugin6/tfplugin6_pb.ts": "export const Tf = 1;\n",
  "provider/core/errors.ts": "export const E = 1;\n",
  "provider/core/naming.ts": "export const N = 1;\n",
  "provider/core/testing.ts": "export const T = 1;\n",
  "provider/core/runtime.ts": `import { readFileSync } from "node:fs";\nimport { E } from "./errors";\nexport const R = [readFileSync, E];\n`,
  "provider/clients/api/client.ts": `import { E } from "../../core/errors";\nimport { Api } from "../../../proto/gen/api_pb";\nexport const C = [E, Api];\n`,
  "provider/kinds/demo/kind.ts": `import { R } from "../../core/runtime";\nimport { C } from "../../clients/api/client";\nexport const K = [R, C];\n`,
  "provider/kinds/index.ts": `import { K } from "./demo/kind";\nexport const KINDS = [K];\n`,
  "provider/engines/pulumi-common/log.ts": `import { E } from "../../core/errors";\nexport const L = E;\n`,
  "provider/engines/dynamic/provider.ts": `import type { Input } from "@pulumi/pulumi";\nimport { KINDS } from "../../kinds/index";\nimport { L } from "../pulumi-common/log";\nexport type I = Input;\nexport const D = [KINDS, L];\n`,
  "provider/engines/terraform/server.ts": `import { Tf } from "../../../proto/gen/tfplugin6/tfplugin6_pb";\nimport { v } from "../../../common/node-version";\nexport const S = [Tf, v];\n`,
  "provider/cli/plan/cli.ts": `import { D } from "../../engines/dynamic/provider";\nimport { S } from "../../engines/terraform/server";\nexport const P = [D, S];\n`,
  "provider/core/runtime.test.ts": `import { D } from "../engines/dynamic/provider";\nimport { T } from "./testing";\nexport const X = [D, T];\n`,
  "sdk/internal/identity.ts": `import { N } from "../../provider/core/naming";\nexport const Id = N;\n`,
  "emulator/server.ts": `import { Api } from "../proto/gen/api_pb";\nimport { v } from "../common/node-version";\nexport const Srv = [Api, v];\n`,
  "emulator/testing.ts": `import { Srv } from "./server";\nexport const Plane = Srv;\n`,
  "node_modules/@pulumi/pulumi/package.json": `{ "name": "@pulumi/pulumi", "main": "index.js", "types": "index.d.ts" }\n`,
  "node_modules/@pulumi/pulumi/index.js": "exports.x = 1;\n",
  "node_modules/@pulumi/pulumi/index.d.ts": "export type Input = string;\n",
  "tsconfig.json": `{ "compilerOptions": { "module": "commonjs", "moduleResolution": "node10", "strict": true } }\n`,

  // Plants.
  "common/planted.ts": `import { E } from "../provider/core/errors";\nexport const P1 = E;\n`,
  "proto/gen/planted_pb.ts": `import { E } from "../../provider/core/errors";\nexport const P2 = E;\n`,
  "provider/core/planted.ts": `import type { D } from "../engines/dynamic/provider";\nexport type P3 = typeof D;\n`,
  "provider/core/pulumi-type.ts": `import type { Input } from "@pulumi/pulumi";\nexport type P4 = Input;\n`,
  "provider/core/uses-testing.ts": `import { T } from "./testing";\nexport const P5 = T;\n`,
  "provider/core/circle-a.ts": `import type { B } from "./circle-b";\nexport type A = { b?: B };\n`,
  "provider/core/circle-b.ts": `import type { A } from "./circle-a";\nexport type B = { a?: A };\n`,
  "provider/clients/api/planted.ts": `import { R } from "../../core/runtime";\nexport const P6 = R;\n`,
  "provider/kinds/demo/planted.ts": `import { D } from "../../engines/dynamic/provider";\nexport const P7 = D;\n`,
  "provider/engines/terraform/planted.ts": `import { D } from "../dynamic/provider";\nexport const P8 = D;\n`,
  "provider/engines/dynamic/planted.ts": `import { C } from "../../clients/api/client";\nexport const P9 = C;\n`,
  "provider/engines/dynamic/tf.ts": `import { Tf } from "../../../proto/gen/tfplugin6/tfplugin6_pb";\nexport const P10 = Tf;\n`,
  "provider/cli/plan/planted.ts": `import { Srv } from "../../../emulator/server";\nexport const P11 = Srv;\n`,
  "provider/registry/routes.ts": `import { E } from "../core/errors";\nexport const P12 = E;\n`,
  "provider/index.ts": `export { D } from "./engines/dynamic/provider";\nexport { E } from "./core/errors";\n`,
  "sdk/internal/planted.ts": `import { KINDS } from "../../provider/kinds/index";\nexport const P13 = KINDS;\n`,
  "emulator/planted.ts": `import { C } from "../provider/clients/api/client";\nexport const P14 = C;\n`,
};

/** Every violation the plants must raise, as `rule: from -> to`, and nothing else. */
const EXPECTED = [
  "cli-sits-on-top: provider/cli/plan/planted.ts -> emulator/server.ts",
  "clients-import-core-errors-deadline-retry: provider/clients/api/planted.ts -> provider/core/runtime.ts",
  "common-imports-nothing: common/planted.ts -> provider/core/errors.ts",
  "core-imports-only-core: provider/core/planted.ts -> provider/engines/dynamic/provider.ts",
  "emulator-shares-only-generated-messages: emulator/planted.ts -> provider/clients/api/client.ts",
  "engines-translate-only: provider/engines/dynamic/planted.ts -> provider/clients/api/client.ts",
  "engines-translate-only: provider/engines/terraform/planted.ts -> provider/engines/dynamic/provider.ts",
  "gen-is-generated-only: proto/gen/planted_pb.ts -> provider/core/errors.ts",
  "kinds-import-core-and-clients: provider/kinds/demo/planted.ts -> provider/engines/dynamic/provider.ts",
  "no-circular: provider/core/circle-a.ts -> provider/core/circle-b.ts",
  "no-test-code-in-production: provider/core/uses-testing.ts -> provider/core/testing.ts",
  "provider-code-lives-in-a-layer: provider/registry/routes.ts -> provider/core/errors.ts",
  "provider-entry-is-the-dynamic-engine: provider/index.ts -> provider/core/errors.ts",
  "pulumi-only-in-pulumi-layers: provider/core/pulumi-type.ts -> node_modules/@pulumi/pulumi/index.js",
  "sdk-imports-only-sdk-and-naming: sdk/internal/planted.ts -> provider/kinds/index.ts",
  "terraform-protocol-only-in-terraform-engine: provider/engines/dynamic/tf.ts -> proto/gen/tfplugin6/tfplugin6_pb.ts",
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

let tree: string;
let violations: Violation[];
/** The exit status of the check as `npm run lint:layers` runs it (the default reporter). */
let status: number | null;

beforeAll(() => {
  tree = mkdtempSync(path.join(tmpdir(), "clusterform-layers-"));
  for (const [file, source] of Object.entries(TREE)) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), source);
  }
  const cli = path.join(repoRoot(), "node_modules", "dependency-cruiser", "bin", "dependency-cruiser.mjs");
  const config = path.join(repoRoot(), ".dependency-cruiser.cjs");
  const roots = ["common", "proto", "provider", "sdk", "emulator"];
  const cruise = (...args: string[]) => spawnSync(process.execPath, [cli, "--config", config, ...args, ...roots], { cwd: tree, encoding: "utf8" });
  const json = cruise("--output-type", "json");
  if (json.stdout === "") throw new Error(`dependency-cruiser printed nothing (exit ${json.status}): ${json.stderr}`);
  violations = (JSON.parse(json.stdout) as { summary: { violations: Violation[] } }).summary.violations;
  status = cruise().status;
}, 60_000);

afterAll(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
});

describe("the layer rules (.dependency-cruiser.cjs)", () => {
  it("report every planted import under its rule, and no allowed import", () => {
    const found = violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    expect(found).toEqual(EXPECTED);
  });

  it("are all errors, so the check exits with their number and fails the test command", () => {
    expect(violations.every((v) => v.rule.severity === "error")).toBe(true);
    expect(status).toBe(EXPECTED.length);
  });
});
