import { createHash, randomInt } from "node:crypto";

/**
 * The seeded random source behind probabilistic faults. A decision depends only on the seed, the
 * fault's definition, the call's identity (API, operation, target) and how many calls of that
 * identity the fault has seen before: the same run against a plane with the same seed and the same
 * faults makes the same decisions, whatever order calls to different objects interleave in (which
 * differs from run to run with parallel engines).
 */
export class ChaosSource {
  private seedValue: number;
  private readonly seen = new Map<string, number>();

  /** @param seed - an integer from 0 to 2^32 - 1. @default a random one */
  constructor(seed?: number) {
    this.seedValue = seed ?? randomInt(0, 2 ** 32 - 1);
  }

  /** The seed decisions derive from; pass it to `--chaos-seed` to replay a run. */
  get seed(): number {
    return this.seedValue;
  }

  /** Starts over with `seed`: every per-call counter is reset too, as in a fresh plane. */
  reseed(seed: number): void {
    this.seedValue = seed;
    this.seen.clear();
  }

  /**
   * A number in [0, 1) for the next call of `identity` seen by the fault `faultKey`; each call of
   * one identity advances that identity's counter only.
   */
  next(faultKey: string, identity: string): number {
    const key = `${faultKey}\u0000${identity}`;
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    const digest = createHash("sha256").update(`${this.seedValue}\u0000${key}\u0000${n}`).digest();
    // 48 bits of the digest: exact in a double.
    return digest.readUIntBE(0, 6) / 2 ** 48;
  }
}

/** Checks a seed; throws a RangeError naming the value and what is allowed. */
export function assertChaosSeed(seed: unknown): asserts seed is number {
  if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) {
    throw new RangeError(`invalid chaos seed ${JSON.stringify(seed)}: expected an integer from 0 to 4294967295`);
  }
}
