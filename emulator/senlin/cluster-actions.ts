import { z } from "zod";
import { assertNoConflict, clusterOf, startClusterAction } from "./cluster-routes";
import { findIn, type SenlinReply, type SenlinRequest } from "./context";
import { badRequest, httpBadRequest, notFound, SenlinError } from "./errors";
import { addNodes, delNodes, replaceNodes } from "./membership-actions";
import { requireMicroversion } from "./microversion";
import type { ClusterRecord, PolicyRecord } from "./records";
import { ADJUSTMENT_TYPES, checkSizeParams, planResize } from "./scaling";
import { checkScaling, scalingPolicyFor } from "./scaling-policy";
import { boolField, intField, parseWith } from "./validation";

type ActionHandler = (req: SenlinRequest, cluster: ClusterRecord, params: Record<string, unknown>) => SenlinReply;

const resizeParams = z.strictObject({
  adjustment_type: z.enum(ADJUSTMENT_TYPES).nullish(),
  number: z.preprocess((v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v), z.number()).nullish(),
  min_size: intField(0).nullish(),
  max_size: intField(-1).nullish(),
  min_step: intField(0).nullish(),
  strict: boolField.optional(),
});

function resize(req: SenlinRequest, cluster: ClusterRecord, params: Record<string, unknown>): SenlinReply {
  const p = parseWith(resizeParams, params);
  const [type, number, minSize, maxSize] = [p.adjustment_type ?? undefined, p.number ?? undefined, p.min_size ?? undefined, p.max_size ?? undefined];
  if ([type, number, minSize, maxSize].every((v) => v === undefined)) throw httpBadRequest("Not enough parameters to do resize action.");
  if (type !== undefined && number === undefined) throw httpBadRequest("Missing number value for size adjustment.");
  if (type === undefined && number !== undefined) throw httpBadRequest("Missing adjustment_type value for size adjustment.");
  if (type === "EXACT_CAPACITY" && number !== undefined && number < 0) {
    throw badRequest("The 'number' must be non-negative integer for adjustment type 'EXACT_CAPACITY'.");
  }
  if (type !== undefined && type !== "CHANGE_IN_PERCENTAGE" && !Number.isInteger(number)) {
    throw badRequest(`Invalid value for 'number': ${number}: only CHANGE_IN_PERCENTAGE accepts a non-integer number.`);
  }
  // The controller's own check, before the engine's (which would say the same as a BadRequest).
  if (minSize !== undefined && maxSize !== undefined && maxSize > 0 && minSize > maxSize) {
    throw httpBadRequest(`The specified min_size (${minSize}) is greater than the specified max_size (${maxSize}).`);
  }
  const minStep = type === "CHANGE_IN_PERCENTAGE" ? (p.min_step ?? undefined) : undefined;
  const strict = p.strict ?? true;
  const outcome = planResize(cluster, { adjustmentType: type, number, minSize, maxSize, minStep, strict });
  if (!outcome.ok) throw badRequest(outcome.message);
  assertNoConflict(req, cluster, "CLUSTER_RESIZE");
  const inputs = { adjustment_type: type ?? null, number: number ?? null, min_size: minSize ?? null, max_size: maxSize ?? null, min_step: minStep ?? null, strict };
  return startClusterAction(req, cluster, "CLUSTER_RESIZE", "cluster_resize", inputs, { size: outcome.size });
}

const scaleParams = z.strictObject({ count: intField(0).optional() });

/**
 * `scale_out` (+1) and `scale_in` (-1): by `count`, else by one node, or as an attached scaling
 * policy decides. The API accepts any positive count: the engine's size check fails the action
 * (202, then FAILED with the reason), leaving the cluster as it was (seen on Senlin 14).
 */
function scale(direction: 1 | -1): ActionHandler {
  const [action, word] = direction > 0 ? (["CLUSTER_SCALE_OUT", "scale-out"] as const) : (["CLUSTER_SCALE_IN", "scale-in"] as const);
  return (req, cluster, params) => {
    const { count } = parseWith(scaleParams, params);
    if (count === 0) throw badRequest(`Count for ${word} request cannot be 0.`);
    assertNoConflict(req, cluster, action);
    const inputs: Record<string, unknown> = count === undefined ? {} : { count };
    const policy = scalingPolicyFor(req.env.store, cluster.id, action);
    // The engine counts the members it has, not the desired capacity.
    const current = req.env.store.members(cluster.id).length;
    const decision = policy ? checkScaling(policy, cluster, current, direction > 0, count) : undefined;
    // The policy's check stores the action with the binding's `last_op` (never set here: null).
    if (decision) inputs.last_op = null;
    const desiredCapacity = current + direction * (decision?.count ?? count ?? 1);
    const refusal = decision?.refusal ?? checkSizeParams(cluster, desiredCapacity);
    const size = { minSize: cluster.minSize, maxSize: cluster.maxSize, desiredCapacity };
    return startClusterAction(req, cluster, action, action.toLowerCase(), inputs, refusal ? { refusal } : { size }, decision?.data);
  };
}

const policyParams = z.strictObject({ policy_id: z.string().min(1), enabled: boolField.optional() });
const detachParams = z.strictObject({ policy_id: z.string().min(1) });

function specifiedPolicy(req: SenlinRequest, identity: string): PolicyRecord {
  try {
    return findIn(req.env.store.policies, req.token.projectId, identity, "policy");
  } catch (error) {
    if (error instanceof SenlinError && error.status === 404) throw badRequest(`The specified policy '${identity}' could not be found.`);
    throw error;
  }
}

function attachedPolicy(req: SenlinRequest, cluster: ClusterRecord, identity: string): PolicyRecord {
  const policy = specifiedPolicy(req, identity);
  if (!req.env.store.bindings(cluster.id).some((b) => b.policyId === policy.id)) {
    throw badRequest(`The policy '${identity}' is not attached to the specified cluster '${req.params.cluster_id}'.`);
  }
  return policy;
}

const policyAttach: ActionHandler = (req, cluster, params) => {
  const { policy_id, enabled = true } = parseWith(policyParams, params);
  const policy = specifiedPolicy(req, policy_id);
  assertNoConflict(req, cluster, "CLUSTER_ATTACH_POLICY");
  return startClusterAction(req, cluster, "CLUSTER_ATTACH_POLICY", "attach_policy", { policy_id: policy.id, enabled }, { policyId: policy.id, enabled });
};

const policyDetach: ActionHandler = (req, cluster, params) => {
  const policy = attachedPolicy(req, cluster, parseWith(detachParams, params).policy_id);
  assertNoConflict(req, cluster, "CLUSTER_DETACH_POLICY");
  return startClusterAction(req, cluster, "CLUSTER_DETACH_POLICY", "detach_policy", { policy_id: policy.id }, { policyId: policy.id });
};

const policyUpdate: ActionHandler = (req, cluster, params) => {
  const { policy_id, enabled = true } = parseWith(policyParams, params);
  const policy = attachedPolicy(req, cluster, policy_id);
  assertNoConflict(req, cluster, "CLUSTER_UPDATE_POLICY");
  return startClusterAction(req, cluster, "CLUSTER_UPDATE_POLICY", "update_policy", { policy_id: policy.id, enabled }, { policyId: policy.id, enabled });
};

const check: ActionHandler = (req, cluster, params) => {
  assertNoConflict(req, cluster, "CLUSTER_CHECK");
  return startClusterAction(req, cluster, "CLUSTER_CHECK", "cluster_check", params);
};

const RECOVERY_OPERATIONS = ["REBOOT", "REBUILD", "RECREATE"];

const recover: ActionHandler = (req, cluster, params) => {
  const { operation, operation_params, check: checkFirst, check_capacity, ...rest } = params;
  if (Object.keys(rest).length > 0) throw badRequest(`Action parameter [${Object.keys(rest).map((k) => `'${k}'`).join(", ")}] is not recognizable.`);
  if (operation !== undefined && (typeof operation !== "string" || !RECOVERY_OPERATIONS.includes(operation.toUpperCase()))) {
    throw badRequest(`Operation value '${String(operation)}' has to be one of the following: ${RECOVERY_OPERATIONS.join(", ")}.`);
  }
  if (checkFirst !== undefined) requireMicroversion(req.version, "recoverCheck");
  if (check_capacity !== undefined) requireMicroversion(req.version, "recoverCheckCapacity");
  assertNoConflict(req, cluster, "CLUSTER_RECOVER");
  const inputs = Object.fromEntries(
    Object.entries({ operation, operation_params, check: checkFirst, check_capacity }).filter(([, v]) => v !== undefined),
  );
  return startClusterAction(req, cluster, "CLUSTER_RECOVER", "cluster_recover", inputs);
};

const completeLifecycle: ActionHandler = (req, _cluster, params) => {
  requireMicroversion(req.version, "completeLifecycle");
  const token = params.lifecycle_action_token;
  if (typeof token !== "string" || token === "") throw badRequest("Invalid value for 'lifecycle_action_token': expected an action id.");
  if (!req.env.store.actions.get(token)) throw notFound("action", token);
  return { status: 202, body: { action: token }, actionId: token };
};

/** The accepted action keys (the controller's SUPPORTED_ACTIONS), their handlers and audited operation names. */
export const CLUSTER_ACTIONS: Readonly<Record<string, { operation: string; handle: ActionHandler }>> = {
  resize: { operation: "ResizeCluster", handle: resize },
  scale_out: { operation: "ScaleOutCluster", handle: scale(1) },
  scale_in: { operation: "ScaleInCluster", handle: scale(-1) },
  add_nodes: { operation: "AddNodesToCluster", handle: addNodes },
  del_nodes: { operation: "DelNodesFromCluster", handle: delNodes },
  replace_nodes: { operation: "ReplaceClusterNodes", handle: replaceNodes },
  policy_attach: { operation: "AttachClusterPolicy", handle: policyAttach },
  policy_detach: { operation: "DetachClusterPolicy", handle: policyDetach },
  policy_update: { operation: "UpdateClusterPolicy", handle: policyUpdate },
  check: { operation: "CheckCluster", handle: check },
  recover: { operation: "RecoverCluster", handle: recover },
  complete_lifecycle: { operation: "CompleteLifecycle", handle: completeLifecycle },
};

/** The operation a malformed action body is audited under. */
export const UNKNOWN_ACTION_OPERATION = "ClusterAction";

/** The operation name an action body is audited under. */
export function actionOperation(body: unknown): string {
  if (typeof body !== "object" || body === null) return UNKNOWN_ACTION_OPERATION;
  const keys = Object.keys(body);
  return keys.length === 1 ? (CLUSTER_ACTIONS[keys[0]]?.operation ?? UNKNOWN_ACTION_OPERATION) : UNKNOWN_ACTION_OPERATION;
}

/** `POST /v1/clusters/{id}/actions`: one key, the action name, whose value is a dict of parameters. */
export function clusterAction(req: SenlinRequest): SenlinReply {
  const cluster = clusterOf(req);
  const body = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw httpBadRequest("No action specified");
  const keys = Object.keys(body);
  if (keys.length === 0) throw httpBadRequest("No action specified");
  if (keys.length > 1) throw httpBadRequest("Multiple actions specified");
  const [name] = keys;
  const entry = CLUSTER_ACTIONS[name];
  if (!entry) throw httpBadRequest(`Unrecognized action '${name}' specified`);
  const params = (body as Record<string, unknown>)[name];
  if (typeof params !== "object" || params === null || Array.isArray(params)) throw httpBadRequest("The data provided is not a map");
  return entry.handle(req, cluster, params as Record<string, unknown>);
}
