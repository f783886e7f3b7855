import { mean } from "./report";

/** Sizes measured in one stored checkpoint. */
export interface StateSizes {
  /** Resources measured (those the type filter kept). */
  resources: number;
  /** Every resource in the checkpoint, the stack and providers included. */
  allResources: number;
  /** Bytes of the whole state file as stored. */
  stateBytes: number;
  /** Bytes of a resource's `__provider` value (the serialized provider, as JSON in the file). */
  providerBytes: { max: number; mean: number };
  /** `__provider` bytes a resource stores in all: the copy in its inputs plus the one in its outputs. */
  providerStoredBytes: { max: number; mean: number };
}

interface StoredResource {
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** Bytes a value takes in the JSON file (escaping included). */
function jsonBytes(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));
}

/**
 * Measures a checkpoint as the file backend stored it. Only resources whose type `measured` keeps
 * count; the state bytes are the whole file's, the stack resource and default provider included.
 */
export function stateSizes(stored: string, measured: (type: string) => boolean): StateSizes {
  const all = (JSON.parse(stored).checkpoint?.latest?.resources ?? []) as StoredResource[];
  const kept = all.filter((r) => measured(r.type));
  if (kept.length === 0) throw new Error("the stored state holds none of the resources to measure");
  const perValue = kept.map((r) => jsonBytes(r.outputs?.__provider ?? r.inputs?.__provider));
  const perResource = kept.map((r) => jsonBytes(r.inputs?.__provider) + jsonBytes(r.outputs?.__provider));
  return {
    resources: kept.length,
    allResources: all.length,
    stateBytes: Buffer.byteLength(stored),
    providerBytes: { max: Math.max(...perValue), mean: mean(perValue) },
    providerStoredBytes: { max: Math.max(...perResource), mean: mean(perResource) },
  };
}
