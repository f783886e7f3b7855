import { describe, expect, it } from "vitest";
import { Stopper } from "./stopper";

/** The rejections no one handled while `body` ran and the event loop turned a few times after. */
async function unhandledDuring(body: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  // Vitest's own listener would fail the run; this test counts them itself.
  const others = process.listeners("unhandledRejection");
  process.removeAllListeners("unhandledRejection");
  process.on("unhandledRejection", listener);
  try {
    await body();
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  } finally {
    process.off("unhandledRejection", listener);
    for (const l of others) process.on("unhandledRejection", l);
  }
  return seen;
}

describe("Stopper", () => {
  it("ends work in flight at stop, and leaves no rejection unhandled when that work fails later", async () => {
    const stopper = new Stopper();
    let fail!: (err: Error) => void;
    const work = new Promise<string>((_, reject) => {
      fail = reject;
    });
    const seen = await unhandledDuring(async () => {
      const raced = stopper.race(work);
      stopper.stop();
      await expect(raced).rejects.toThrow(/stopped \(StopProvider/);
      fail(new Error("the platform call failed after the stop"));
    });
    expect(seen).toEqual([]);
  });

  it("refuses work handed to it after the stop, and handles that work's own failure", async () => {
    const stopper = new Stopper();
    stopper.stop();
    const seen = await unhandledDuring(async () => {
      // The work was started by the caller and stops itself, as apply does at throwIfStopped.
      const work = (async () => {
        stopper.throwIfStopped();
        return "done";
      })();
      await expect(stopper.race(work)).rejects.toThrow(/stopped \(StopProvider/);
    });
    expect(seen).toEqual([]);
  });

  it("settles with the work when it ends before any stop", async () => {
    await expect(new Stopper().race(Promise.resolve("done"))).resolves.toBe("done");
  });
});
