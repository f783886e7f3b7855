import { describe, expect, it, vi } from "vitest";
import { KINDS } from "../../resources/kinds";
import { providerService } from "./provider-service";
import { Stopper } from "./stopper";

// The provider loads each kind's compiled module with require(), which cannot load TypeScript here.
vi.mock("./kind-modules", async (original) => {
  const { terraformTypeName } = await import("./schema");
  const actual = await original<typeof import("./kind-modules")>();
  return { ...actual, loadKind: (name: string) => KINDS.find((k) => terraformTypeName(k.type) === name) };
});

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
