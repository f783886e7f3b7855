import { describe, expect, it } from "vitest";
import { markSecret, SECRET_SIG, SIG_KEY, unwrapSecrets } from "./secrets";

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

describe("secret wrappers of the native plugin", () => {
  it("unwraps secrets at any depth and names the top-level properties that held one", () => {
    const { plain, secretKeys } = unwrapSecrets({ a: secret("pw"), b: { nested: [1, secret(2)] }, c: "plain" });
    expect(plain).toEqual({ a: "pw", b: { nested: [1, 2] }, c: "plain" });
    expect([...secretKeys].sort()).toEqual(["a", "b"]);
  });

  it("marks the given properties secret once, and skips absent ones", () => {
    const marked = markSecret({ kubeconfig: "apiVersion: v1", other: 1 }, ["kubeconfig", "missing"]);
    expect(marked).toEqual({ kubeconfig: secret("apiVersion: v1"), other: 1 });
    expect(markSecret(marked, ["kubeconfig"])).toEqual(marked);
  });
});
