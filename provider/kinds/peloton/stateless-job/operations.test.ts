import { describe, expect, it } from "vitest";
import { recorded } from "./operations";
import type { StatelessJobInputs } from "./schema";

type Props = Record<string, unknown>;
const pod = (image: string) => ({ containers: [{ name: "web", image, resources: { cpu: 1, memoryMb: 64 } }] });
const olds: Props = { owner: "o", resourceName: "web", respoolId: "p", instanceCount: 2, defaultSpec: pod("a"), desiredState: "RUNNING" };
const news = {
  ...olds,
  instanceCount: 3,
  defaultSpec: pod("b"),
  labels: { tier: "x" },
  restartNonce: "2",
  desiredState: "KILLED",
  updatePolicy: { batchSize: 2 },
} as unknown as StatelessJobInputs & Props;

describe("recorded: what the state keeps after a failed update", () => {
  it("keeps the old configuration, nonce and run state when nothing was applied, dropping fields the old inputs lacked", () => {
    const out = recorded(olds, news, new Set());
    expect(out).toEqual({ ...olds, updatePolicy: { batchSize: 2 } });
    expect(Object.values(out)).not.toContain(undefined);
  });

  it("records the new configuration once the rollout succeeded, and the run state only when it was reached", () => {
    expect(recorded(olds, news, new Set(["config", "restartNonce"]))).toEqual({ ...news, desiredState: "RUNNING" });
    expect(recorded(olds, news, new Set(["config", "restartNonce", "desiredState"]))).toEqual(news);
  });
});
