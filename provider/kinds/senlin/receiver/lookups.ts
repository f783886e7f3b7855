import type { Lookup } from "../../../core/definition/lookup";
import { senlinObject } from "../lookups";
import { receiverKind } from "./schema";

/** `senlin:Receiver`'s lookup: one receiver by id, its webhook URL a secret as in the resource's state. */
export const receiverLookups: readonly Lookup[] = [
  senlinObject(receiverKind, "receiver", "Reads a Senlin webhook receiver by id without managing it: its cluster, action, params and webhook URL (GET /v1/receivers/{id})."),
];
