import { describe, expect, it } from "vitest";
import { providerSchema, providerService } from "./provider-service";
import { schemaFromJson, schemaToJson, storedSchema } from "./schema-cache";
import { Stopper } from "./stopper";

describe("the provider block's schema", () => {
  it("marks exactly the credentials sensitive: the Senlin and CycleCloud passwords", async () => {
    const service = providerService(new Stopper());
    const answer = (await service.getProviderSchema!({} as never, {} as never)) as { provider: { block: { attributes: { name: string; sensitive: boolean; optional: boolean }[] } } };
    expect(answer).not.toHaveProperty("diagnostics");
    const attributes = answer.provider.block.attributes;
    expect(attributes.filter((a) => a.sensitive).map((a) => a.name).sort()).toEqual(["cyclecloud_password", "senlin_password"]);
    expect(attributes.map((a) => a.name)).toEqual(expect.arrayContaining(["endpoint", "senlin_username", "cyclecloud_username"]));
    expect(attributes.every((a) => a.optional)).toBe(true);
  });
});

describe("the stored GetProviderSchema answer", () => {
  it("reads back as the answer computed from the definitions, attribute types as bytes", async () => {
    const computed = await providerSchema();
    const stored = schemaFromJson(schemaToJson(computed));
    expect(stored).toEqual(computed);
    const pool = (stored.resourceSchemas as Record<string, { block: { attributes: { name: string; type?: Uint8Array }[] } }>).clusterform_cmassh_node_pool;
    expect(new TextDecoder().decode(pool.block.attributes.find((a) => a.name === "node_count")!.type)).toBe('"number"');
  });

  it("is read only by the bundle", () => {
    expect(storedSchema("/x/dist/provider/engines/terraform/main.js")).toBeUndefined();
  });
});
