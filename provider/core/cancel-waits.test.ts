import { describe, expect, it } from "vitest";
import { cancelAllWaits, realSleep } from "./retry";

// cancelAllWaits is process-wide and final; vitest evaluates modules afresh for each test file.
describe("cancelAllWaits (the native plugin's Cancel)", () => {
  // A 60 s sleep that did not end at the cancel would outlast the test's timeout.
  it("ends a sleep in progress at once and every later sleep immediately, with a Canceled error", async () => {
    await expect(realSleep(5)).resolves.toBeUndefined();
    const long = realSleep(60_000);
    cancelAllWaits();
    await expect(long).rejects.toMatchObject({ code: "Canceled", platformCode: "CANCELED" });
    await expect(realSleep(60_000)).rejects.toMatchObject({ code: "Canceled" });
  });
});
