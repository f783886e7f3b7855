import { clearField, clone, create } from "@bufbuild/protobuf";
import { type VClusterSpec as WireSpec, VClusterSpecSchema } from "../../../proto/gen/vcluster/api/v1/vcluster_api_pb";

/**
 * The spec an UpdateVCluster sends: the live spec with the masked fields set as `desired` has them
 * (a masked field `desired` leaves unset is cleared). A server that honours `update_mask` applies
 * the same masked fields; the API's reference server ignores the mask and replaces the whole spec,
 * and so keeps every field the update did not name instead of wiping it.
 * A path below a top-level field (`spec.ingress.hostname`) takes that whole top-level field from `desired`.
 * @param live - the spec as GetVCluster answered it just before.
 * @param paths - the request's update_mask paths (`spec.helm_values`, `labels`, ...).
 */
export function wholeSpec(live: WireSpec | undefined, desired: WireSpec, paths: readonly string[]): WireSpec {
  const whole = live ? clone(VClusterSpecSchema, live) : create(VClusterSpecSchema);
  for (const path of paths) {
    const [root, name] = path.split(".");
    if (root !== "spec") continue;
    const field = VClusterSpecSchema.fields.find((f) => f.name === name);
    // An unknown path is the server's to refuse: it travels in the mask unchanged.
    if (!field) continue;
    const value = (desired as unknown as Record<string, unknown>)[field.localName];
    clearField(whole, field);
    (whole as unknown as Record<string, unknown>)[field.localName] = value;
  }
  return whole;
}
