import { describe, it } from "vitest";
import { KINDS, type Kind } from "./all-kinds";
import type { Engine } from "./matrix-stack";

/** What every matrix suite's title starts with: the matrix table is read from test results by it. */
export const MATRIX_PREFIX = "matrix";

/** A matrix suite's title: `matrix(<engine>): <scenario>`, read back by `scripts/matrix-table.mjs`. */
export const matrixTitle = (engine: Engine, scenario: string) => `${MATRIX_PREFIX}(${engine}): ${scenario}`;

/**
 * One row of the reliability matrix: a scenario tried once on a stack holding every kind, on one
 * engine, then one test per kind asserting what must hold for that kind. The scenario runs when the
 * first of them does and its outcome is shared, so the row costs one set of engine runs, and a kind
 * that did not hold fails exactly its own test. The suite is titled {@link matrixTitle} and each
 * test by its kind, which is how `scripts/matrix-table.mjs` builds the table in test/README.md.
 * @param kinds - the kinds the scenario covers. @default every kind
 */
export function matrixScenario<T>(
  engine: Engine,
  scenario: string,
  run: () => Promise<T>,
  check: (outcome: T, kind: Kind) => void | Promise<void>,
  kinds: readonly Kind[] = KINDS,
): void {
  let outcome: Promise<T> | undefined;
  describe(matrixTitle(engine, scenario), () => {
    for (const kind of kinds) {
      it(kind, async () => {
        outcome ??= run();
        await check(await outcome, kind);
      });
    }
  });
}
