import { OWNER_LABEL_KEY } from "../../core/naming";
import { describeValue, dnsLabel, labelMap, oneOf } from "../../core/validation";
import type { Value } from "../../core/definition/values";

/** Machine types cma-ssh provisions. */
export const INSTANCE_TYPES = ["standard", "gpu"] as const;

/** An instance type field. */
export const instanceType = () => oneOf(INSTANCE_TYPES);

/** An instance type, as a definition value. */
export const instanceTypeValue = (): Value<(typeof INSTANCE_TYPES)[number]> => ({
  type: { kind: "string", enum: INSTANCE_TYPES },
  validate: instanceType(),
});

/** A cma-ssh object name: the server makes a Kubernetes namespace of it, so a DNS-1123 label. */
export const objectName = () => dnsLabel({ maxLength: 63 });

/** A cma-ssh object name, as a definition value. */
export const objectNameValue = (): Value<string> => ({ type: { kind: "string" }, validate: objectName() });

/** User labels: Kubernetes syntax, and the ownership key is reserved for Clusterform. */
export const userLabels = () =>
  labelMap().superRefine((labels, ctx) => {
    if (typeof labels === "object" && labels !== null && Object.hasOwn(labels, OWNER_LABEL_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [OWNER_LABEL_KEY],
        message: `is reserved: Clusterform sets ${OWNER_LABEL_KEY} to mark what it created, got ${describeValue(labels[OWNER_LABEL_KEY])}`,
        params: { mapKey: true },
      });
    }
  });

/** User labels, as a definition value. */
export const userLabelsValue = (): Value<Record<string, string>> => ({
  type: { kind: "map", of: { kind: "string" } },
  validate: userLabels(),
});
