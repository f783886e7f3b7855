import { fromEngineNames } from "../../core/definition/names";
import { plannedKindOf } from "./planners";

type Props = Record<string, unknown>;

/** Whether an engine type is the native plugin's (`clusterform:<platform>:<Kind>`). */
export function isNativeType(type: string): boolean {
  return type.startsWith("clusterform:");
}

/**
 * Properties as the handlers and planners name them (the definitions' keys). The native plugin's
 * state and inputs use Pulumi's names (a job's `owner` is its `jobOwner`, a vcluster's `owner` its
 * `vclusterOwner`) and are renamed back, as the plugin does before calling a handler; the dynamic
 * provider's already use the definitions' keys, and so does state a native resource took over from
 * a dynamic one (it still holds `__provider`). Rename once only: a second pass would read a dynamic
 * resource's ownership marker `owner` as the job's owner.
 */
export function definitionProps(type: string, props: Props): Props {
  if (!isNativeType(type) || "__provider" in props) return props;
  const found = plannedKindOf(type, props);
  return found ? fromEngineNames(found.kind, props, "pulumi") : props;
}
