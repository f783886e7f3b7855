import type { SenlinClient } from "../../../clients/senlin/client";
import type { Receiver } from "../../../clients/senlin/types";
import type { ResourceOperations } from "../../../core/contract";
import { createOrAdopt } from "../../../core/create-or-adopt";
import type { Deadline } from "../../../core/deadline";
import { ClusterformError } from "../../../core/errors";
import { carryOut } from "../../../core/plan/operation";
import { deadlineFor, readDeadline } from "../../fields";
import { deleteUnlessGone, orMissing, patchUnlessDone } from "../catalog-ops";
import { senlinClient } from "../client";
import { RECEIVER_CALLS, RECEIVER_TIMEOUTS, type RECEIVER_UPDATE_CALLS, type ReceiverInputs, receiverIdentity } from "./schema";

type Props = Record<string, unknown>;
type Inputs = ReceiverInputs & Props;

const q = JSON.stringify;

/** The outputs create and read record of a receiver: its webhook URL (secret by its field definition). */
export function receiverOutputsOf(receiver: Receiver): Props {
  return { alarmUrl: typeof receiver.channel.alarm_url === "string" ? receiver.channel.alarm_url : "" };
}

/** The webhook receivers of this name on this cluster (Senlin names are not unique: one is taken). */
async function findNamed(client: SenlinClient, inputs: Inputs, deadline: Deadline): Promise<Receiver | undefined> {
  const named = await client.listReceivers({ filters: { name: inputs.name!, cluster_id: inputs.cluster, type: "webhook" } }, { deadline });
  return named.find((r) => r.name === inputs.name && r.clusterId === inputs.cluster && r.type === "webhook");
}

/** A receiver of a name the user chose: Senlin keeps no marker, so it may be anyone's. */
function foreignReceiver(inputs: Inputs): ClusterformError {
  return new ClusterformError({
    code: "AlreadyExists",
    platformCode: "EXISTS",
    operation: `${RECEIVER_CALLS.CreateReceiver} receiver ${q(inputs.name)}`,
    platformMessage:
      `a webhook receiver named ${q(inputs.name)} already exists on cluster ${inputs.cluster} and this stack did not create it ` +
      "(Senlin keeps no metadata on receivers, so ownership is known only for names Clusterform derived itself); import it " +
      "by its id, choose another name, delete that receiver, or leave `name` unset to let Clusterform derive one",
  });
}

/** Senlin webhook receivers: created once, renamed and re-targeted in place, deleted with 404 as done. */
export const receiverOperations: ResourceOperations<ReceiverInputs> = {
  async create(ctx, inputs) {
    const client = await senlinClient(ctx.config);
    const deadline = deadlineFor(inputs, "create", RECEIVER_TIMEOUTS);
    const { value: receiver } = await createOrAdopt(ctx, {
      operation: `${RECEIVER_CALLS.CreateReceiver} receiver ${q(inputs.name)}`,
      deadline,
      // A derived name holds a hash of the owner and the cluster: a receiver of that name on that
      // cluster is what an interrupted create of this resource left. A chosen name proves nothing.
      find: () => findNamed(client, inputs, deadline),
      send: () => client.createReceiver({ name: inputs.name!, type: "webhook", clusterId: inputs.cluster, action: inputs.action, params: inputs.params ?? {} }, { deadline }),
      identify: (found) => ({ identity: receiverIdentity(found.name, found.clusterId) ?? "", id: found.id }),
      foreign: () => (inputs.autoNamed ? undefined : foreignReceiver(inputs)),
      target: "the receiver",
    });
    return { id: receiver.id, outs: receiverOutputsOf(receiver) };
  },

  async read(ctx, id, props) {
    const client = await senlinClient(ctx.config);
    const receiver = await orMissing(() => client.getReceiver(id, { deadline: readDeadline(props, RECEIVER_TIMEOUTS) }));
    return receiver ? receiverOutputsOf(receiver) : undefined;
  },

  async update(ctx, id, _olds, news, plan) {
    const client = await senlinClient(ctx.config);
    const deadline = deadlineFor(news, "update", RECEIVER_TIMEOUTS);
    let receiver: Receiver | undefined;
    // One PATCH of the changed fields; Senlin refuses one that changes nothing, so none is planned then.
    await carryOut<typeof RECEIVER_UPDATE_CALLS>("senlin:Receiver", plan.operations, {
      async [RECEIVER_CALLS.UpdateReceiver](o) {
        const { name, action, params } = o.args as { name?: string; action?: string; params?: Record<string, unknown> };
        // An emptied params is sent as {}: Senlin treats an absent one as "unchanged".
        const update = { name, action, ...("params" in o.args ? { params: params ?? {} } : {}) };
        receiver = await patchUnlessDone(ctx, `${o.call} receiver ${q(id)}`, deadline, () => client.updateReceiver(id, update, { deadline }));
      },
    });
    return receiverOutputsOf(receiver ?? (await client.getReceiver(id, { deadline })));
  },

  async delete(ctx, id, props) {
    const client = await senlinClient(ctx.config);
    const deadline = deadlineFor(props, "delete", RECEIVER_TIMEOUTS);
    await deleteUnlessGone("receiver", "something uses it", () => client.deleteReceiver(id, { deadline }));
  },
};
