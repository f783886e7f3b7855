import { isUnknown } from "../../../core/validation";
import { completeName } from "../../fields";
import { defineKind, type Kind } from "../../../core/definition/kind";
import { receiverLookups } from "./lookups";
import { receiverPlanner } from "./plan";
import { type ReceiverInputs, receiverIdentity, receiverKind } from "./schema";

type Props = Record<string, unknown>;

/**
 * Fills a derived name from the resource name and a hash of the owner and the cluster: an
 * interrupted create derives it again (Senlin keeps no marker on receivers: name and cluster are how
 * it is found), and another cluster (a replacement) gets a new name. A resource name like `1st`
 * gets a prefix.
 */
function complete(olds: Props, news: ReceiverInputs & Props, kind: Kind): ReceiverInputs & Props {
  const named = completeName(olds, news, kind);
  const { name } = named;
  if (!named.autoNamed || typeof name !== "string" || isUnknown(name) || /^[A-Za-z]/.test(name)) return named;
  return { ...named, name: `receiver-${name}` };
}

/** `senlin:Receiver`: its fields (schema.ts), identity, planner, operations and import. */
export const senlinReceiver = defineKind(receiverKind, {
  complete,
  // A replacement has another cluster, so old and new never share an identity.
  identity: (inputs) => (isUnknown(inputs.name) || isUnknown(inputs.cluster) ? undefined : receiverIdentity(inputs.name, inputs.cluster)),
  planner: receiverPlanner,
  operations: async () => (await import("./operations")).receiverOperations,
  importer: async () => (await import("./import")).receiverImport,
  lookups: receiverLookups,
});
