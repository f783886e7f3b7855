import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { repoRoot, workDir } from "../test/harness/paths";
import { applyArgs, openTofuDir, planArgs, type TofuDir } from "../test/harness/tofu";
import { create, type DescMessage, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { createPluginCertificate } from "../provider/engines/terraform/certificate";
import { providerService } from "../provider/engines/terraform/provider-service";
import { Stopper } from "../provider/engines/terraform/stopper";
import { GetMetadata_ResponseSchema, GetProviderSchema_ResponseSchema } from "../proto/gen/tfplugin6/tfplugin6_pb";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../provider/engines/terraform/server";
import { TARGETS, runsHere } from "../tools/release/node-binaries";
import { buildExecutable, type StartMode } from "../tools/release/sea/executable";
import { seaPrograms } from "../tools/release/sea/programs";
import { type FirstCall, firstAnswerMs, firstLine, type StartSample } from "./support/plugin-start";
import { benchWorkspace } from "./support/programs";
import { median, publish, round, timed } from "./support/report";

/** Starts measured per subject, interleaved. */
const STARTS = Number(process.env.CLUSTERFORM_BENCH_SAMPLES ?? 15);
/** No-change plans measured per subject, after one warm-up each. */
const PLANS = Number(process.env.CLUSTERFORM_BENCH_PLANS ?? 5);
/** Resources of each plan: a cluster and 99 pools, against as many terraform_data. */
const RESOURCES = 100;
const MODES: StartMode[] = ["code-cache", "snapshot"];

type Subject = { name: string; command: string; args: string[]; env: NodeJS.ProcessEnv };

/** Medians of samples: wall ms, CPU ms. */
function summary(samples: StartSample[]): { ms: number; cpuMs: number } {
  return { ms: median(samples.map((s) => s.ms)), cpuMs: median(samples.map((s) => s.cpuMs)) };
}

/** One provider process of a tofu command, from tofu's debug log: its start, handshake and exit. */
interface ProviderSpan {
  pid: string;
  toHandshakeMs: number;
  servingMs: number;
}

/**
 * The provider processes of one tofu command, in order, from its debug log (TF_LOG=debug): from
 * "starting plugin" to "using plugin" (the handshake read), then to "plugin process exited".
 */
function providerSpans(log: string): ProviderSpan[] {
  const at = (line: string) => Date.parse(line.slice(0, line.indexOf(" ")));
  const spans: ProviderSpan[] = [];
  let start = 0;
  let handshake = 0;
  let pid = "";
  for (const line of log.split("\n")) {
    if (line.includes("provider: starting plugin:") && line.includes("terraform-provider-clusterform")) {
      start = at(line);
      handshake = 0;
    } else if (start && line.includes("provider: plugin started:")) {
      pid = /pid=(\d+)/.exec(line)?.[1] ?? "";
    } else if (start && !handshake && line.includes("provider: using plugin:")) {
      handshake = at(line);
    } else if (start && line.includes("plugin process exited")) {
      const end = at(line);
      spans.push({ pid, toHandshakeMs: (handshake || end) - start, servingMs: end - (handshake || start) });
      start = 0;
    }
  }
  return spans;
}

/**
 * The floor provider (support/provider-floor.cjs) as tofu runs it: an executable script for this
 * Node, with the answers it cannot echo (GetMetadata, GetProviderSchema: this provider's own, so
 * tofu checks the same configuration against the same schema) and a server certificate made ahead.
 * @returns its folder (for dev_overrides) and the environment it needs.
 */
async function floorProvider(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = path.join(workDir(), "bench", "provider-floor");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "terraform-provider-clusterform");
  writeFileSync(file, `#!${process.execPath}\n${readFileSync(path.join(repoRoot(), "bench", "support", "provider-floor.cjs"), "utf8")}`);
  chmodSync(file, 0o755);
  const service = providerService(new Stopper());
  const binary = async <D extends DescMessage>(schema: D, answer: unknown) => {
    if (answer && typeof answer === "object" && "diagnostics" in answer) throw new Error(`the provider failed: ${JSON.stringify(answer)}`);
    return Buffer.from(toBinary(schema, create(schema, answer as MessageInitShape<D>))).toString("base64");
  };
  const answers = path.join(dir, "answers.json");
  writeFileSync(
    answers,
    JSON.stringify({
      GetMetadata: await binary(GetMetadata_ResponseSchema, await service.getMetadata!({} as never, {} as never)),
      GetProviderSchema: await binary(GetProviderSchema_ResponseSchema, await service.getProviderSchema!({} as never, {} as never)),
    }),
  );
  const cert = createPluginCertificate();
  return { dir, env: { CLUSTERFORM_FLOOR_ANSWERS: answers, CLUSTERFORM_FLOOR_KEY: cert.keyPem, CLUSTERFORM_FLOOR_CERT: cert.certPem } };
}

describe(`single executables: start-up of both engines (code cache against startup snapshot) and a no-change tofu plan of ${RESOURCES} resources against ${RESOURCES} terraform_data`, () => {
  const host = TARGETS.find(runsHere);
  const executables: Record<string, string> = {};
  let workspace: string;
  let plane: LocalPlane;
  const results: Record<string, number> = {};

  beforeAll(async () => {
    if (!host) throw new Error(`no release platform runs here (${process.platform}/${process.arch})`);
    workspace = benchWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.01 });
    for (const program of seaPrograms()) {
      for (const mode of MODES) {
        const work = path.join(workDir(), "bench", "sea", `${program.name}-${mode}`);
        executables[`${program.name}:${mode}`] = await buildExecutable({ root: repoRoot(), program, target: host, mode, work });
      }
    }
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("measures spawn to the handshake line (tofu) and to the port line (Pulumi), against a bare Node start and each engine's floor", async () => {
    const client = createPluginCertificate();
    const floorCert = createPluginCertificate();
    const tofuEnv = { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: client.certPem };
    const installed = path.join(workspace, "node_modules", "clusterform");
    const node = process.execPath;
    const subjects: Subject[] = [
      { name: "node -e (a bare Node start)", command: node, args: ["-e", "console.log(1)"], env: process.env },
      {
        name: "tofu floor: node:http2 TLS server, no provider",
        command: node,
        args: [path.join(repoRoot(), "bench", "support", "handshake-floor.cjs")],
        env: { ...tofuEnv, CLUSTERFORM_FLOOR_KEY: floorCert.keyPem, CLUSTERFORM_FLOOR_CERT: floorCert.certPem },
      },
      {
        name: "tofu floor, making its own key and certificate (AutoMTLS)",
        command: node,
        args: [path.join(repoRoot(), "bench", "support", "handshake-floor.cjs")],
        env: { ...tofuEnv, CLUSTERFORM_FLOOR_CERTIFICATE: path.join(installed, "dist", "provider", "engines", "terraform", "certificate.js") },
      },
      { name: "tofu: npm package (node + bundle.cjs)", command: node, args: [path.join(installed, "dist", "provider", "engines", "terraform", "bundle.cjs")], env: tofuEnv },
      ...MODES.map((mode) => ({ name: `tofu: executable, ${mode}`, command: executables[`terraform-provider-clusterform:${mode}`], args: [], env: tofuEnv })),
      { name: "Pulumi floor: grpc-js server, no provider", command: node, args: [path.join(repoRoot(), "bench", "support", "port-floor.cjs")], env: { ...process.env } },
      {
        name: "Pulumi floor: node:http2 server without TLS (any Node gRPC server)",
        command: node,
        args: [path.join(repoRoot(), "bench", "support", "port-floor.cjs")],
        env: { ...process.env, CLUSTERFORM_FLOOR_HTTP2: "1" },
      },
      { name: "Pulumi: npm package (node + main.js)", command: node, args: [path.join(installed, "dist", "provider", "engines", "pulumi-native", "main.js"), "127.0.0.1:1"], env: process.env },
      ...MODES.map((mode) => ({ name: `Pulumi: executable, ${mode}`, command: executables[`pulumi-resource-clusterform:${mode}`], args: ["127.0.0.1:1"], env: process.env })),
    ];
    const samples = new Map<string, StartSample[]>(subjects.map((s) => [s.name, []]));
    for (let i = 0; i < STARTS; i++) {
      for (const subject of subjects) samples.get(subject.name)!.push(await firstLine(subject.command, subject.args, { ...subject.env, PWD: workspace }));
    }
    // The first answer a tofu start gives (the call decides what loads), for the executables.
    const answers: Record<string, number[]> = {};
    for (let i = 0; i < Math.ceil(STARTS / 3); i++) {
      for (const mode of MODES) {
        for (const call of ["getProviderSchema", "validateResourceConfig"] as FirstCall[]) {
          const key = `${mode}:${call}`;
          answers[key] = [...(answers[key] ?? []), await firstAnswerMs(executables[`terraform-provider-clusterform:${mode}`], [], call, client, tofuEnv)];
        }
      }
    }
    const bare = summary(samples.get(subjects[0].name)!);
    const rows = subjects.map((subject) => {
      const s = summary(samples.get(subject.name)!);
      return { subject: subject.name, "wall ms": round(s.ms, 1), "ratio to node -e": round(s.ms / bare.ms), "CPU ms": round(s.cpuMs, 0), "CPU ratio": round(s.cpuMs / bare.cpuMs) };
    });
    for (const [key, values] of Object.entries(answers)) {
      rows.push({ subject: `tofu: executable, ${key.replace(":", ", first answer ")}`, "wall ms": round(median(values), 1), "ratio to node -e": round(median(values) / bare.ms), "CPU ms": "", "CPU ratio": "" } as never);
    }
    for (const [name, file] of Object.entries(executables)) results[`bytes:${name}`] = statSync(file).size;
    publish("release-start", "Single executables: start-up (medians)", rows, { results, samples: Object.fromEntries(samples), answers });
    expect(rows).toHaveLength(subjects.length + Object.keys(answers).length);
  });

  it(`measures a no-change tofu plan of ${RESOURCES} Clusterform resources (each start mode) against ${RESOURCES} terraform_data`, async () => {
    const dirs: Record<string, TofuDir> = {};
    const base = { example: "", endpoint: plane.url };
    dirs["terraform_data"] = openTofuDir("bench-data", { ...base, providerDir: workspace, source: path.join(repoRoot(), "bench", "programs", "tofu-data") });
    for (const mode of MODES) {
      const providerDir = path.dirname(executables[`terraform-provider-clusterform:${mode}`]);
      dirs[mode] = openTofuDir(`bench-pools-${mode}`, { ...base, providerDir, source: path.join(repoRoot(), "bench", "programs", "tofu-pools") });
      dirs[mode].env.TF_VAR_pools = String(RESOURCES - 1);
      dirs[mode].env.TF_VAR_cluster_name = `bench-${mode}`;
    }
    dirs["terraform_data"].env.TF_VAR_resources = String(RESOURCES);
    // terraform_data is built into tofu: its directory needs an init (no provider to install).
    await dirs["terraform_data"].ok(["init", "-input=false", "-no-color"]);
    for (const dir of Object.values(dirs)) await dir.ok([...applyArgs(), "-parallelism=16"]);
    // The floor provider plans the snapshot executable's state (it creates nothing itself).
    const floor = await floorProvider();
    dirs["floor provider"] = openTofuDir("bench-pools-floor", { ...base, providerDir: floor.dir, source: path.join(repoRoot(), "bench", "programs", "tofu-pools") });
    Object.assign(dirs["floor provider"].env, floor.env, { TF_VAR_pools: String(RESOURCES - 1), TF_VAR_cluster_name: "bench-snapshot" });
    copyFileSync(path.join(dirs.snapshot.dir, "terraform.tfstate"), path.join(dirs["floor provider"].dir, "terraform.tfstate"));
    const plans: Record<string, number[]> = {};
    for (let i = 0; i <= PLANS; i++) {
      for (const [name, dir] of Object.entries(dirs)) {
        const plan = await timed(() => dir.run(planArgs({}, ["-detailed-exitcode"])));
        expect(plan.value.code, `${name}: ${plan.value.stdout}${plan.value.stderr}`).toBe(0);
        if (i > 0) plans[name] = [...(plans[name] ?? []), plan.ms];
      }
    }
    // Where the time goes: the same plan without refresh (no ReadResource, no platform call), and
    // the calls and provider processes of one plan (CLUSTERFORM_TF_REQUEST_LOG).
    const log = path.join(workDir(), "bench", "release-plan-calls.log");
    const snapshot = dirs.snapshot;
    const noRefresh: number[] = [];
    for (let i = 0; i <= PLANS; i++) {
      const plan = await timed(() => snapshot.run(planArgs({}, ["-detailed-exitcode", "-refresh=false"])));
      expect(plan.value.code).toBe(0);
      if (i > 0) noRefresh.push(plan.ms);
    }
    // One plan each of the snapshot executable and the floor provider with tofu's debug log: their provider processes.
    const traced = async (dir: TofuDir, name: string, env: Record<string, string> = {}) => {
      const trace = path.join(workDir(), "bench", `release-plan-trace-${name}.log`);
      rmSync(trace, { force: true });
      const plan = await timed(() => dir.run(planArgs({}, ["-detailed-exitcode"]), { env: { ...env, TF_LOG: "debug", TF_LOG_PATH: trace } }));
      expect(plan.value.code).toBe(0);
      const spans = providerSpans(readFileSync(trace, "utf8"));
      expect(spans.length).toBeGreaterThan(0);
      return { ms: plan.ms, spans };
    };
    rmSync(log, { force: true });
    const tracedSnapshot = await traced(snapshot, "snapshot", { CLUSTERFORM_TF_REQUEST_LOG: log });
    const spans = tracedSnapshot.spans;
    const tracedFloor = await traced(dirs["floor provider"], "floor");
    const lines = readFileSync(log, "utf8").trim().split("\n");
    const processes = new Set(lines.map((l) => l.split(" ")[0])).size;
    const calls: Record<string, number> = {};
    for (const line of lines) calls[line.split(" ")[1]] = (calls[line.split(" ")[1]] ?? 0) + 1;
    const dataPlan = median(plans.terraform_data);
    const rows = [
      ...Object.entries(plans).map(([name, values]) => ({ plan: name, "median s": round(median(values) / 1000, 3), "ratio to terraform_data": round(median(values) / dataPlan) })),
      { plan: "snapshot, -refresh=false", "median s": round(median(noRefresh) / 1000, 3), "ratio to terraform_data": round(median(noRefresh) / dataPlan) },
    ];
    const callsOf = (pid: string) => {
      const counted = new Map<string, number>();
      for (const line of lines.filter((l) => l.startsWith(`${pid} `))) counted.set(line.split(" ")[1], (counted.get(line.split(" ")[1]) ?? 0) + 1);
      return [...counted].map(([call, n]) => `${call} ${n}`).join(", ");
    };
    const spanRows = (who: string, list: ProviderSpan[], callsOfSpan: (span: ProviderSpan) => string) =>
      list.map((span, i) => ({
        plan: `  ${who}, provider process ${i + 1} of the traced plan${callsOfSpan(span)}: start to handshake, handshake to exit, ms`,
        "median s": `${span.toHandshakeMs} + ${span.servingMs}`,
        "ratio to terraform_data": "",
      }));
    rows.push(
      ...(spanRows("snapshot", spans, (span) => ` (${callsOf(span.pid)})`) as never[]),
      { plan: "  the traced plan of the snapshot (TF_LOG=debug), s", "median s": round(tracedSnapshot.ms / 1000, 3), "ratio to terraform_data": "" } as never,
      ...(spanRows("floor provider", tracedFloor.spans, () => "") as never[]),
      { plan: "  the traced plan of the floor provider (TF_LOG=debug), s", "median s": round(tracedFloor.ms / 1000, 3), "ratio to terraform_data": "" } as never,
    );
    publish("release-plan", `No-change tofu plan of ${RESOURCES} resources (medians of ${PLANS})`, rows, { plans, noRefresh, processes, calls, spans, tracedMs: tracedSnapshot.ms, floorSpans: tracedFloor.spans, floorTracedMs: tracedFloor.ms });
    expect(processes).toBeGreaterThan(0);
  });
});
