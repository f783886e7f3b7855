import { spawn } from "node:child_process";
import * as path from "node:path";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type EngineStack, openStack } from "../test/harness/engine";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { repoRoot } from "../test/harness/paths";
import { applyArgs, openTofuDir, planArgs, type TofuDir } from "../test/harness/tofu";
import { createPluginCertificate, type PluginCertificate } from "../provider/engines/terraform/certificate";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../provider/engines/terraform/server";
import { encodeMsgpack, type TfValue } from "../provider/engines/terraform/codec";
import { buildResourceType } from "../provider/engines/terraform/schema";
import { nodePoolKind } from "../provider/kinds/cmassh/node-pool/schema";
import { Provider } from "../proto/gen/tfplugin6/tfplugin6_pb";
import { benchWorkspace, copyBenchProgram } from "./support/programs";
import { median, publish, round, timed } from "./support/report";

/** Provider starts measured (and Node starts, the floor). */
const STARTS = Number(process.env.CLUSTERFORM_BENCH_SAMPLES ?? 10);
/** No-op plans and previews measured, after one warm-up of each. */
const SAMPLES = 3;
/** A cluster and 99 pools (CLUSTERFORM_BENCH_TOFU_POOLS for a quick run). */
const POOLS = Number(process.env.CLUSTERFORM_BENCH_TOFU_POOLS ?? 99);

/** Milliseconds from spawning `command` until its first line on stdout (the handshake line). */
function firstLineMs(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "inherit"] });
    child.once("error", reject);
    child.stdout.once("data", () => {
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill();
    });
  });
}

/** The first call a fresh provider process answers, as tofu makes it (over go-plugin's mutual TLS). */
type FirstCall = "getMetadata" | "getProviderSchema" | "validateResourceConfig";

/** A cma-ssh pool's configuration, as tofu sends it to ValidateResourceConfig (every other attribute null). */
function poolConfig(): Uint8Array {
  const type = buildResourceType(nodePoolKind as never);
  const value: Record<string, TfValue> = Object.fromEntries(type.attributes.map((a) => [a.name, null]));
  Object.assign(value, { name: "pool-0", cluster_name: "main", instance_type: "standard", node_count: 1 });
  return encodeMsgpack(value, type.objectType);
}

/**
 * Milliseconds from spawning the provider until it answered `call`, its first: what one of the
 * several starts of a tofu command costs before tofu can go on. Each sample is a new process.
 */
function firstAnswerMs(command: string, call: FirstCall, client: PluginCertificate, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, [], { env, stdio: ["ignore", "pipe", "inherit"] });
    child.once("error", reject);
    child.stdout.once("data", async (line: Buffer) => {
      try {
        // 1|6|tcp|127.0.0.1:<port>|grpc|<certificate, unpadded base64 DER>
        const [, , , address, , cert] = line.toString().trim().split("|");
        const der = Buffer.from(cert.padEnd(Math.ceil(cert.length / 4) * 4, "="), "base64").toString("base64");
        const serverPem = `-----BEGIN CERTIFICATE-----\n${(der.match(/.{1,64}/g) ?? []).join("\n")}\n-----END CERTIFICATE-----\n`;
        const transport = createGrpcTransport({
          baseUrl: `https://${address}`,
          nodeOptions: { ca: serverPem, cert: client.certPem, key: client.keyPem, servername: "localhost" },
        });
        const provider = createClient(Provider, transport);
        if (call === "getMetadata") await provider.getMetadata({});
        else if (call === "getProviderSchema") await provider.getProviderSchema({});
        else {
          const answer = await provider.validateResourceConfig({ typeName: "clusterform_cmassh_node_pool", config: { msgpack: poolConfig() } });
          if (answer.diagnostics.length > 0) throw new Error(`ValidateResourceConfig: ${answer.diagnostics.map((d) => d.summary).join("; ")}`);
        }
        resolve(Number(process.hrtime.bigint() - started) / 1e6);
      } catch (err) {
        reject(err);
      } finally {
        child.kill();
      }
    });
  });
}

describe(`OpenTofu: provider start-up, and a no-change plan of ${POOLS + 1} resources against the Pulumi native plugin's no-op preview of the same`, () => {
  let plane: LocalPlane;
  let workspace: string;
  let tofu: TofuDir;
  let pulumi: EngineStack;
  const results: Record<string, number> = {};

  beforeAll(async () => {
    workspace = benchWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.01 });
    const providerDir = path.join(workspace, "node_modules", "clusterform", "bin");
    tofu = openTofuDir("bench-pools", { example: "", source: path.join(repoRoot(), "bench", "programs", "tofu-pools"), providerDir, endpoint: plane.url });
    tofu.env.TF_VAR_pools = String(POOLS);
    // The same resources through the native plugin (the provider Pulumi users run since issue 16).
    pulumi = await openStack({ programDir: copyBenchProgram(workspace, "native-pools"), config: { "bench:pools": { value: String(POOLS) }, "clusterform:endpoint": { value: plane.url } } });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it("measures the provider's start-up: spawn to handshake line, against Node printing a line", async () => {
    const shim = path.join(workspace, "node_modules", "clusterform", "bin", "terraform-provider-clusterform");
    const env = { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "6", PLUGIN_CLIENT_CERT: createPluginCertificate().certPem };
    // The compiled entry point the bundle is made from: what a start cost before the bundle.
    const unbundled = path.join(workspace, "node_modules", "clusterform", "dist", "provider", "engines", "terraform", "main.js");
    const provider: number[] = [];
    const node: number[] = [];
    const entry: number[] = [];
    const client = createPluginCertificate();
    const callEnv = { ...env, PLUGIN_CLIENT_CERT: client.certPem };
    const calls: Record<FirstCall, number[]> = { getMetadata: [], getProviderSchema: [], validateResourceConfig: [] };
    for (let i = 0; i < STARTS; i++) {
      provider.push(await firstLineMs(shim, [], env));
      node.push(await firstLineMs(process.execPath, ["-e", "console.log(1)"], env));
      entry.push(await firstLineMs(process.execPath, [unbundled], env));
      for (const call of Object.keys(calls) as FirstCall[]) calls[call].push(await firstAnswerMs(shim, call, client, callEnv));
    }
    for (const call of Object.keys(calls) as FirstCall[]) results[`${call}FirstAnswerMs`] = round(median(calls[call]), 0);
    results.providerStartMs = round(median(provider), 0);
    results.nodeStartMs = round(median(node), 0);
    results.startRatio = round(median(provider) / median(node));
    results.unbundledStartMs = round(median(entry), 0);
    results.unbundledRatio = round(median(entry) / median(node));
    expect(provider).toHaveLength(STARTS);
  });

  it(`measures a no-change tofu plan and a no-op pulumi preview of ${POOLS + 1} resources`, async () => {
    await tofu.ok([...applyArgs(), "-parallelism=16"]);
    await pulumi.up();
    const plans: number[] = [];
    const previews: number[] = [];
    for (let i = 0; i <= SAMPLES; i++) {
      const plan = await timed(() => tofu.run(planArgs({}, ["-detailed-exitcode"])));
      expect(plan.value.code, plan.value.stdout).toBe(0);
      const preview = await timed(() => pulumi.preview());
      expect(changingSteps(preview.value)).toEqual([]);
      // The first of each is a warm-up.
      if (i > 0) {
        plans.push(plan.ms);
        previews.push(preview.ms);
      }
    }
    results.tofuPlanSeconds = round(median(plans) / 1000);
    results.pulumiPreviewSeconds = round(median(previews) / 1000);
    results.planToPreviewRatio = round(median(plans) / median(previews));
    publish(
      "tofu",
      "OpenTofu provider: start-up and a 100-resource no-change plan",
      [
        { measure: "provider start (spawn to handshake), ms", value: results.providerStartMs, baseline: `node prints a line: ${results.nodeStartMs}`, ratio: results.startRatio },
        { measure: "same, unbundled main.js, ms", value: results.unbundledStartMs, baseline: `node prints a line: ${results.nodeStartMs}`, ratio: results.unbundledRatio },
        ...(["getMetadata", "validateResourceConfig", "getProviderSchema"] as const).map((call) => ({
          measure: `provider start to its first answer, ${call}, ms`,
          value: results[`${call}FirstAnswerMs`],
          baseline: `node prints a line: ${results.nodeStartMs}`,
          ratio: round(results[`${call}FirstAnswerMs`] / results.nodeStartMs),
        })),
        { measure: `no-change plan, ${POOLS + 1} resources, s`, value: results.tofuPlanSeconds, baseline: `pulumi preview (native plugin): ${results.pulumiPreviewSeconds}`, ratio: results.planToPreviewRatio },
      ],
      results,
    );
  });
});
