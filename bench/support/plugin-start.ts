import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { PluginCertificate } from "../../provider/engines/terraform/certificate";
import { encodeMsgpack, type TfValue } from "../../provider/engines/terraform/codec";
import { buildResourceType } from "../../provider/engines/terraform/schema";
import { nodePoolKind } from "../../provider/kinds/cmassh/node-pool/schema";
import { Provider } from "../../proto/gen/tfplugin6/tfplugin6_pb";

/** One start of a plugin: wall milliseconds to its first line on stdout, and the CPU it had used by then. */
export interface StartSample {
  ms: number;
  /** User + system CPU of the process when its first line arrived (clock ticks of 10 ms), from /proc. */
  cpuMs: number;
}

/** CPU milliseconds a live process has used (Linux /proc; 100 ticks a second). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Spawns `command` and measures until its first line on stdout (go-plugin's handshake line, a
 * Pulumi plugin's port), then kills it.
 */
export function firstLine(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<StartSample> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "inherit"] });
    child.once("error", reject);
    child.stdout.once("data", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      let cpuMs = Number.NaN;
      try {
        cpuMs = cpuMsOf(child.pid);
      } catch {
        // Gone already: the CPU figure of this sample is unknown.
      }
      child.kill("SIGKILL");
      resolve({ ms, cpuMs });
    });
  });
}

/** The first call a fresh provider process answers, as tofu makes it (over go-plugin's mutual TLS). */
export type FirstCall = "getMetadata" | "getProviderSchema" | "validateResourceConfig";

/** A cma-ssh pool's configuration, as tofu sends it to ValidateResourceConfig (every other attribute null). */
function poolConfig(): Uint8Array {
  const type = buildResourceType(nodePoolKind as never);
  const value: Record<string, TfValue> = Object.fromEntries(type.attributes.map((a) => [a.name, null]));
  Object.assign(value, { name: "pool-0", cluster_name: "main", instance_type: "standard", node_count: 1 });
  return encodeMsgpack(value, type.objectType);
}

/**
 * Milliseconds from spawning the OpenTofu provider until it answered `call`, its first: what one of
 * the several starts of a tofu command costs before tofu can go on. Each sample is a new process.
 */
export function firstAnswerMs(command: string, args: string[], call: FirstCall, client: PluginCertificate, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "inherit"] });
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
