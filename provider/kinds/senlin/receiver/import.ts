import type { Receiver } from "../../../clients/senlin/types";
import type { ImportDefinition, Props } from "../../../core/contract";
import { readDeadline } from "../../fields";
import { orMissing } from "../catalog-ops";
import { senlinClient } from "../client";
import { SENLIN_ID } from "../profile/import";
import { receiverOutputsOf } from "./operations";
import { RECEIVER_TIMEOUTS } from "./schema";

/** A receiver's inputs as Senlin reports them: every one (name, cluster, action, params, type). */
function inputsOf(receiver: Receiver): Props {
  return {
    name: receiver.name,
    cluster: receiver.clusterId,
    action: receiver.action,
    type: receiver.type,
    ...(Object.keys(receiver.params).length > 0 ? { params: receiver.params } : {}),
  };
}

/**
 * Import of `senlin:Receiver` by its Senlin id (a UUID). A `message` receiver is read as it is;
 * the check of the program's inputs then refuses its type, with the reason.
 */
export const receiverImport: ImportDefinition = {
  platform: "senlin",
  idPattern: SENLIN_ID,
  async read(ctx, id) {
    const client = await senlinClient(ctx.config);
    const receiver = await orMissing(() => client.getReceiver(id, { deadline: readDeadline({}, RECEIVER_TIMEOUTS) }));
    if (!receiver) return undefined;
    return { inputs: inputsOf(receiver), outputs: receiverOutputsOf(receiver) };
  },
};
