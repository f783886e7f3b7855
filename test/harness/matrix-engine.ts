import { afterAll } from "vitest";
import { CALL_TIMEOUT, FAULT_TIME_SCALE, faultRows } from "./matrix-fault-rows";
import { KILL_TIME_SCALE, killRows } from "./matrix-kill-rows";
import { openPulumiMatrixStack } from "./matrix-pulumi";
import type { Engine, MatrixStack, MatrixStackOptions } from "./matrix-stack";
import { openTofuMatrixStack } from "./matrix-tofu";

/** Opens the all-kinds stack of `engine` on a new plane. */
export function openMatrixStack(engine: Engine, opts: MatrixStackOptions): Promise<MatrixStack> {
  return engine === "tofu" ? openTofuMatrixStack(opts) : openPulumiMatrixStack(engine, opts);
}

/**
 * Registers the matrix rows that depend on the engine (transient and permanent faults, SIGKILL
 * during create, update and delete, the plane restarted during create) for one engine, on one plane
 * and one stack for the whole file: the fault rows first, on a fast plane (time scale
 * {@link FAULT_TIME_SCALE}) with a 2 s call timeout; then the stack is destroyed and the plane
 * restarted with long operations (time scale {@link KILL_TIME_SCALE}) and the default call timeout
 * for the rows that interrupt the engine. One file per engine, so that vitest's workers run the
 * engines side by side.
 */
export function engineRows(engine: Engine): void {
  let opened: Promise<MatrixStack> | undefined;
  const faultStack = () =>
    (opened ??= (async () => {
      const t = await openMatrixStack(engine, { timeScale: FAULT_TIME_SCALE });
      await t.setCallTimeout(CALL_TIMEOUT);
      return t;
    })());
  let killing: Promise<MatrixStack> | undefined;
  const killStack = () =>
    (killing ??= (async () => {
      const t = await faultStack();
      // The fault rows leave the stack at round 2; the kill rows start from nothing at round 0.
      await t.destroy();
      await t.setCallTimeout(undefined);
      await t.configure({ round: 0 });
      await t.plane.restart({ timeScale: KILL_TIME_SCALE });
      return t;
    })());
  afterAll(async () => {
    await opened?.then(
      (t) => t.plane.stop(),
      () => undefined,
    );
  });
  faultRows(engine, faultStack);
  killRows(engine, killStack);
}
