import { z } from "zod";
import { describeValue, intInRange, orUnknown } from "../../core/validation";

/**
 * Small schema pieces of the Peloton resources, built on plain zod and the core blocks. Each lets
 * the preview sentinel through (values from other resources' outputs are unknown in preview).
 */

/** A number checked by `ok`; `rule` says what is allowed, e.g. `a number greater than 0`. */
function numberWhere(ok: (v: number) => boolean, rule: string): z.ZodType<number, unknown> {
  return orUnknown(
    z.unknown().transform((v, ctx) => {
      if (typeof v === "number" && Number.isFinite(v) && ok(v)) return v;
      ctx.addIssue({ code: "custom", message: `must be ${rule}, got ${describeValue(v)}`, input: v });
      return z.NEVER;
    }),
  );
}

/** A finite number greater than 0. */
export const positive = () => numberWhere((v) => v > 0, "a number greater than 0");

/** A finite number of at least 0. */
export const nonNegative = () => numberWhere((v) => v >= 0, "a number of at least 0");

/** A percentage: 0 to 100. */
export const percent = () => numberWhere((v) => v >= 0 && v <= 100, "a number from 0 to 100");

/** A non-negative integer no larger than `max` (uint32 fields). */
export const count = (max = 4_294_967_295) => intInRange(0, max);

/** A string, possibly empty. */
export const text = () => orUnknown(z.string());

/** A non-empty string. */
export const nonEmpty = () =>
  orUnknown(
    z.unknown().transform((v, ctx) => {
      if (typeof v === "string" && v.trim() !== "") return v;
      ctx.addIssue({ code: "custom", message: `must be a non-empty string, got ${describeValue(v)}`, input: v });
      return z.NEVER;
    }),
  );

/** A boolean. */
export const flag = () => orUnknown(z.boolean());

/** A map of strings to strings (Peloton labels and environment variables: any text). */
export const stringMap = () => orUnknown(z.record(z.string(), orUnknown(z.string())));

/** A list of strings. */
export const stringList = () => orUnknown(z.array(orUnknown(z.string())));
