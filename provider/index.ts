/**
 * The stable entry point every `__provider` text requires (`clusterform/provider`). State written by
 * any release calls these functions, so their names and arguments never change: texts written since
 * the SDK writes its own (sdk/internal/resource.ts) call {@link dynamicProvider}; the serialized
 * shims of earlier releases (sdk/internal/shim.ts) call the per-method functions, each of which
 * takes the resource type first. The Pulumi dynamic provider itself: engines/dynamic/provider.ts.
 */
export { check, configure, create, delete, diff, dynamicProvider, read, update } from "./engines/dynamic/provider";
