import type * as grpc from "@grpc/grpc-js";
import { SILENT } from "../../core/contract";
import { Holds, memoryHoldStore } from "../../core/holds";
import { ownerMarker } from "../../core/naming";
import { createCore } from "../../core/runtime";
import { type KindType, kindOf } from "../../kinds";
import { DYNAMIC_ENGINE } from "../dynamic/engine";
import { type DynamicMethods, dynamicMethods } from "../dynamic/provider";
import { failuresOf, initFailureOf, type NativeServer, propsOf, startNativeServer } from "../pulumi-native/testing";
import type { CtyType, TfValue } from "../terraform/codec";
import { terraformTypeName } from "../terraform/kind-modules";
import { configOf, decodedValue, dv, errorsOf, proposedNew, startTofuProvider, type TofuProvider, type TypeSchema } from "../terraform/testing";
import { type AdapterPlane, auditSeq, PULUMI_NAMES, startAdapterPlane } from "../testing";

/*
 * The three engine adapters' own surfaces, side by side, against one in-process local control plane
 * (test helper, not built into the package): the dynamic provider's methods as Pulumi's dynamic
 * provider host calls them (dynamicMethods), the native plugin's gRPC service (Check, Create, Update)
 * as the Pulumi engine calls it, and the tfplugin6 service (ValidateResourceConfig,
 * PlanResourceChange, ApplyResourceChange) as OpenTofu calls it. A test gives one kind's inputs in
 * the definitions' keys; each surface receives them in its engine's names, and answers what that
 * engine shows its user, normalized here to one shape ({@link Shown}).
 */

type Props = Record<string, unknown>;
type TfObject = Record<string, TfValue>;

/** The three engines, by the name their users know the field by. */
export const ENGINES = ["dynamic", "pulumi", "terraform"] as const;
export type EngineName = (typeof ENGINES)[number];

/** One failure as an engine shows it. */
export interface Shown {
  /**
   * What the engine prints before the reason. Pulumi: the failure's property (`property <p> value
   * {...} has a problem:`), empty for none; OpenTofu: the diagnostic's summary (`Invalid <attr>`).
   */
  heading: string;
  /** The attribute the diagnostic points at (OpenTofu shows its configuration line); Pulumi has none. */
  attribute?: string;
  /** The reason (Pulumi) or the diagnostic's detail (OpenTofu): it starts with the field's path. */
  text: string;
}

/** One part of a path: the first name, a `.name`, an `[index]` or a `["key"]`. */
const PATH_PART = /^[A-Za-z_]\w*|\.[A-Za-z_]\w*|\[(?:\d+|"(?:[^"\\]|\\.)*")\]/g;

/** The parts of a field path, checked to be one. */
function partsOf(path: string): string[] {
  const parts = path.match(PATH_PART);
  if (!parts || parts.join("") !== path) throw new Error(`test harness: not a field path: ${path}`);
  return parts;
}

/** HCL attribute names that are not the snake_case of the Pulumi name (the kinds' `names.terraform`). */
const HCL_RENAMED: Readonly<Record<string, string>> = { count: "node_count", vclusterOwner: "vcluster_owner", jobOwner: "job_owner" };

/** `clusterName` -> `cluster_name`, as users read the HCL attributes. */
function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/**
 * A field's path (definition keys: `controlPlane.instanceType`, `labels["k"]`, `policies[1].policy`)
 * as each engine's users write it: the dynamic classes take the definition keys, Pulumi programs
 * the Pulumi names (a renamed top-level field), HCL the attributes' names (snake_case, renamed
 * ones); map keys and list indexes are kept.
 */
export function pathIn(engine: EngineName, path: string): string {
  if (engine === "dynamic") return path;
  const [top, ...rest] = partsOf(path);
  if (engine === "pulumi") return [PULUMI_NAMES[top] ?? top, ...rest].join("");
  const hcl = (ident: string) => HCL_RENAMED[ident] ?? snake(PULUMI_NAMES[ident] ?? ident);
  return [hcl(top), ...rest.map((part) => (part.startsWith(".") ? `.${hcl(part.slice(1))}` : part))].join("");
}

/** Whether the path names a top-level field (Pulumi then shows its value after the property). */
export function isTopLevel(path: string): boolean {
  return !/[.[]/.test(path);
}

/**
 * A value in definition keys as an HCL configuration writes it, walking the resource type's cty
 * type: object attributes renamed (nested ones too), map keys and free-form JSON kept. Where HCL
 * cannot carry the value to the provider (OpenTofu itself refuses or converts it before any
 * provider call: a value of another type, an attribute the schema lacks), the reason, as `refused`.
 */
function hclValue(value: unknown, type: CtyType, path: string): { value: TfValue } | { refused: string } {
  if (value === null || value === undefined) return { value: null };
  if (type === "dynamic") return { value: value as TfValue };
  if (typeof type === "string") {
    const js = type === "number" ? "number" : type === "bool" ? "boolean" : "string";
    if (typeof value !== js) return { refused: `${path} is a ${type} attribute: tofu converts or refuses ${JSON.stringify(value)} itself` };
    return { value: value as TfValue };
  }
  const [kind, spec] = type;
  if (kind === "list" || kind === "set") {
    if (!Array.isArray(value)) return { refused: `${path} is a ${kind}: tofu refuses ${JSON.stringify(value)} itself` };
    const items: TfValue[] = [];
    for (const [i, item] of value.entries()) {
      const converted = hclValue(item, spec as CtyType, `${path}[${i}]`);
      if ("refused" in converted) return converted;
      items.push(converted.value);
    }
    return { value: items };
  }
  if (typeof value !== "object" || Array.isArray(value)) return { refused: `${path} is an ${kind}: tofu refuses ${JSON.stringify(value)} itself` };
  const out: TfObject = {};
  for (const [key, item] of Object.entries(value as Props)) {
    const name = kind === "map" ? key : (HCL_RENAMED[key] ?? snake(PULUMI_NAMES[key] ?? key));
    const inner = kind === "map" ? (spec as CtyType) : (spec as Record<string, CtyType>)[name];
    const at = path === "" ? name : kind === "map" ? `${path}[${JSON.stringify(key)}]` : `${path}.${name}`;
    if (inner === undefined) return { refused: `the schema has no attribute ${at}: tofu refuses it itself ("An argument named ... is not expected here")` };
    const converted = hclValue(item, inner, at);
    if ("refused" in converted) return converted;
    out[name] = converted.value;
  }
  return { value: out };
}

/** The `provider "clusterform"` block that reaches a plane: the settings' keys in snake_case. */
function providerBlockOf(plane: AdapterPlane): Record<string, string> {
  return Object.fromEntries(Object.entries(plane.settings).map(([k, v]) => [snake(k), v]));
}

/** Configure's args for a plane, as a native plugin's provider resource would send them. */
function configArgsOf(plane: AdapterPlane): Props {
  return { ...plane.settings };
}

/** A resource's failure as a whole (a rule over two fields with none set): no field to point at. */
export const WHOLE = "inputs";

/** How engine `engine` heads the failure of `field`: Pulumi its property, OpenTofu its summary and attribute. */
export function headingOf(type: KindType, field: string, engine: EngineName): Partial<Shown> {
  const top = pathIn(engine, field).split(/[.[]/)[0];
  if (engine === "terraform") return field === WHOLE ? { heading: `Invalid ${terraformTypeName(type)}` } : { heading: `Invalid ${top}`, attribute: top };
  // Pulumi prints `property <p> value {<value of p>}`, reading p among the top-level inputs only:
  // a nested field has no property, or Pulumi would print `value {<nil>}`.
  return { heading: field !== WHOLE && isTopLevel(field) ? top : "" };
}

/** The object an engine made, as that engine keeps it for its next check or change. */
export interface Made {
  id: string;
  /** Dynamic and native: the checked inputs; terraform: the configuration applied. */
  inputs: Props;
  /** Dynamic and native: the outputs; terraform: the state. */
  outputs: Props;
  /** Terraform's private state. */
  private?: Uint8Array;
}

/** What an engine answered to a change it could not make. */
export interface Refused {
  /** The error as the engine shows it (Pulumi: the error's message; OpenTofu: the diagnostics' text). */
  message: string;
  /** The state the engine records for the object afterwards: undefined keeps the one it had; null records none. */
  kept: Props | null | undefined;
}

const PROJECT = "checks";
const STACK = "checks";

/** The three surfaces over one plane. */
export interface CheckSurfaces {
  plane: AdapterPlane;
  /**
   * The failures engine `engine` shows for `inputs` (definition keys) of an object of `type` named
   * `name` (the resource's name in Pulumi; the HCL name, for a kind that has one, is `inputs.name`),
   * checked as new or against `made`. Terraform answers twice, ValidateResourceConfig (new objects
   * only) and PlanResourceChange, and both must agree: the plan's answer is returned.
   * Throws when HCL cannot carry the inputs ({@link hclRefusal}).
   */
  check(engine: EngineName, type: KindType, name: string, inputs: Props, made?: Made): Promise<Shown[]>;
  /**
   * Why HCL cannot carry `inputs` of an object named `name` to the provider (OpenTofu refuses it
   * itself, before any provider call), or undefined when it can.
   */
  hclRefusal(type: KindType, name: string, inputs: Props): string | undefined;
  /** Creates the object through engine `engine`'s own calls (check, create; validate, plan, apply). */
  create(engine: EngineName, type: KindType, name: string, inputs: Props): Promise<Made>;
  /** Runs a create that must fail, through engine `engine`: what it shows and the state it keeps. */
  failedCreate(engine: EngineName, type: KindType, name: string, inputs: Props): Promise<Refused>;
  /** Runs an update of `made` to `inputs` that must fail, through engine `engine`. */
  failedUpdate(engine: EngineName, type: KindType, name: string, made: Made, inputs: Props): Promise<Refused>;
  /** The sequence number of the plane's newest audit entry. */
  seq(): Promise<number>;
  /** Every call the plane received after `since`, as `api:operation`, reads included. */
  callsSince(since: number): Promise<string[]>;
  close(): Promise<void>;
}

/** Starts a plane (startAdapterPlane), the native plugin's service and an OpenTofu provider process on it. */
export async function startCheckSurfaces(): Promise<CheckSurfaces> {
  const [plane, server] = await Promise.all([startAdapterPlane(), startNativeServer()]);
  const tofu = await startTofuProvider(providerBlockOf(plane));
  const { resourceSchemas } = await tofu.client.getProviderSchema({});
  const required = new Map(Object.entries(resourceSchemas).map(([typeName, s]) => [typeName, s.block!.attributes.filter((a) => a.required).map((a) => a.name)]));
  // One native run per stack: each test file's own.
  let nativeRun: Promise<void> | undefined;
  const nativeReady = () => {
    nativeRun ??= server.newRun(STACK, configArgsOf(plane));
    return nativeRun;
  };
  const dynamicRun = async (type: KindType): Promise<DynamicMethods> => {
    const core = createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, memoryHoldStore()), reporterFor: () => SILENT });
    const methods = dynamicMethods(core, () => kindOf(type));
    await methods.configure(plane.config);
    return methods;
  };
  const surfaces: Surfaces = { plane, server, tofu, required, nativeReady, dynamicRun };

  return {
    plane,
    check: (engine, type, name, inputs, made) => checkWith(surfaces, engine, type, name, inputs, made),
    hclRefusal: (type, name, inputs) => {
      const converted = hclOf(surfaces, type, name, inputs);
      return "refused" in converted ? converted.refused : undefined;
    },
    create: (engine, type, name, inputs) => createWith(surfaces, engine, type, name, inputs),
    failedCreate: (engine, type, name, inputs) => failWith(surfaces, engine, type, name, inputs),
    failedUpdate: (engine, type, name, made, inputs) => failWith(surfaces, engine, type, name, inputs, made),
    seq: () => auditSeq(plane.t),
    callsSince: async (since) => {
      const { entries } = (await plane.t.http("GET", `/_local/audit?since=${since}`)).body as { entries: { api: string; operation: string }[] };
      return entries.map((e) => `${e.api}:${e.operation}`);
    },
    close: async () => {
      server.close();
      await plane.close();
    },
  };
}

interface Surfaces {
  plane: AdapterPlane;
  server: NativeServer;
  tofu: TofuProvider;
  /** The attributes each resource type requires. */
  required: Map<string, string[]>;
  nativeReady(): Promise<void>;
  dynamicRun(type: KindType): Promise<DynamicMethods>;
}

const urnOf = (kind: "dynamic" | "native", type: KindType, name: string) =>
  kind === "dynamic" ? `urn:pulumi:${STACK}::${PROJECT}::pulumi-nodejs:dynamic/${type}::${name}` : `urn:pulumi:${STACK}::${PROJECT}::clusterform:${type}::${name}`;

/** What the dynamic SDK sends for a resource (sdk/internal/identity.ts): the inputs and the hidden ones. */
function sdkInputs(type: KindType, name: string, inputs: Props): Props {
  return {
    ...inputs,
    __provider: `exports.handler = () => require("clusterform/provider").dynamicProvider(${JSON.stringify(type)});`,
    owner: ownerMarker(PROJECT, STACK, name),
    resourceName: name,
    deleteBeforeReplace: true,
    resourceUrn: urnOf("dynamic", type, name),
  };
}

/** Definition-key inputs in Pulumi names (a renamed top-level field), as a native program writes them. */
function pulumiInputs(inputs: Props): Props {
  return Object.fromEntries(Object.entries(inputs).map(([k, v]) => [PULUMI_NAMES[k] ?? k, v]));
}

/**
 * The HCL block of `inputs`: a kind with a name requires it in HCL (Pulumi derives it from the
 * resource's name), so a block without one is given `name`.
 */
function hclOf(s: Surfaces, type: KindType, name: string, inputs: Props): { value: TfValue } | { refused: string } {
  const typeName = terraformTypeName(type);
  const required = s.required.get(typeName) ?? [];
  const named = required.includes("name") && inputs.name === undefined ? { ...inputs, name } : inputs;
  const converted = hclValue(named, s.tofu.schemaOf(typeName).objectType, "");
  if ("refused" in converted) return converted;
  const missing = required.filter((attr) => (converted.value as TfObject)[attr] === undefined);
  if (missing.length > 0) return { refused: `${missing.join(", ")} is required by the schema: tofu refuses the block itself ("The argument ... is required")` };
  return converted;
}

function tfConfig(s: Surfaces, type: KindType, name: string, inputs: Props): { typeName: string; schema: TypeSchema; config: TfObject } {
  const typeName = terraformTypeName(type);
  const schema = s.tofu.schemaOf(typeName);
  const converted = hclOf(s, type, name, inputs);
  if ("refused" in converted) throw new Error(`test harness: HCL cannot carry these inputs: ${converted.refused}`);
  return { typeName, schema, config: configOf(schema, converted.value as TfObject) };
}

/** tofu plan of `inputs` against the state `made` left (none: a new object). */
async function tfPlan(s: Surfaces, type: KindType, name: string, inputs: Props, made?: Made) {
  const { typeName, schema, config } = tfConfig(s, type, name, inputs);
  const prior = made ? (made.outputs as TfObject) : null;
  const planned = await s.tofu.client.planResourceChange({
    typeName,
    priorState: dv(schema, prior),
    proposedNewState: dv(schema, proposedNew(schema, prior, config)),
    config: dv(schema, config),
    priorPrivate: made?.private ?? new Uint8Array(),
  });
  return { typeName, schema, config, prior, planned };
}

const pulumiShown = (failures: { property: string; reason: string }[]): Shown[] => failures.map((f) => ({ heading: f.property, text: f.reason }));
const tofuShown = (errors: { summary: string; detail: string; attribute?: string }[]): Shown[] =>
  errors.map((e) => ({ heading: e.summary, text: e.detail, ...(e.attribute === undefined ? {} : { attribute: e.attribute }) }));

async function checkWith(s: Surfaces, engine: EngineName, type: KindType, name: string, inputs: Props, made?: Made): Promise<Shown[]> {
  switch (engine) {
    case "dynamic": {
      const run = await s.dynamicRun(type);
      const news = sdkInputs(type, name, inputs);
      const answer = await run.check(made?.inputs ?? {}, news);
      // A refused check answers the news it was given, as the host expects.
      if (answer.failures && answer.failures.length > 0 && answer.inputs !== news) throw new Error("dynamic check: a refusal answered other inputs than the news");
      return pulumiShown(answer.failures ?? []);
    }
    case "pulumi": {
      await s.nativeReady();
      const answer = await s.server.check(urnOf("native", type, name), made?.inputs ?? {}, pulumiInputs(inputs));
      return pulumiShown(failuresOf(answer));
    }
    case "terraform": {
      const { typeName, schema, config, planned } = await tfPlan(s, type, name, inputs, made);
      const plan = tofuShown(errorsOf(planned.diagnostics));
      if (!made) {
        // Validation has no prior state: it answers for a new object only, and must agree with the plan.
        const validated = tofuShown(errorsOf((await s.tofu.client.validateResourceConfig({ typeName, config: dv(schema, config) })).diagnostics));
        if (JSON.stringify(validated) !== JSON.stringify(plan)) {
          throw new Error(`terraform: ValidateResourceConfig and PlanResourceChange disagree:\n${JSON.stringify(validated)}\n${JSON.stringify(plan)}`);
        }
      }
      return plan;
    }
  }
}

async function createWith(s: Surfaces, engine: EngineName, type: KindType, name: string, inputs: Props): Promise<Made> {
  switch (engine) {
    case "dynamic": {
      const run = await s.dynamicRun(type);
      const checked = await run.check({}, sdkInputs(type, name, inputs));
      if (checked.failures && checked.failures.length > 0) throw new Error(`dynamic check refused: ${JSON.stringify(checked.failures)}`);
      const made = await run.create(checked.inputs);
      return { id: made.id, inputs: checked.inputs, outputs: made.outs };
    }
    case "pulumi": {
      await s.nativeReady();
      const urn = urnOf("native", type, name);
      const checked = await s.server.check(urn, {}, pulumiInputs(inputs));
      if (failuresOf(checked).length > 0) throw new Error(`native Check refused: ${JSON.stringify(failuresOf(checked))}`);
      const made = await s.server.create(urn, propsOf(checked.getInputs()), 600);
      return { id: made.getId(), inputs: propsOf(checked.getInputs()), outputs: propsOf(made.getProperties()) };
    }
    case "terraform": {
      const { typeName, schema, config } = tfConfig(s, type, name, inputs);
      const planned = await s.tofu.client.planResourceChange({ typeName, priorState: dv(schema, null), proposedNewState: dv(schema, proposedNew(schema, null, config)), config: dv(schema, config) });
      if (errorsOf(planned.diagnostics).length > 0) throw new Error(`terraform plan refused: ${JSON.stringify(errorsOf(planned.diagnostics))}`);
      const applied = await s.tofu.client.applyResourceChange({
        typeName,
        priorState: dv(schema, null),
        plannedState: planned.plannedState,
        config: dv(schema, config),
        plannedPrivate: planned.plannedPrivate,
      });
      if (errorsOf(applied.diagnostics).length > 0) throw new Error(`terraform apply failed: ${JSON.stringify(errorsOf(applied.diagnostics))}`);
      const state = decodedValue(schema, applied.newState)!;
      return { id: String(state.id), inputs: config, outputs: state, private: applied.private };
    }
  }
}

async function failWith(s: Surfaces, engine: EngineName, type: KindType, name: string, inputs: Props, made?: Made): Promise<Refused> {
  switch (engine) {
    case "dynamic": {
      const run = await s.dynamicRun(type);
      const checked = await run.check(made?.inputs ?? {}, sdkInputs(type, name, inputs));
      if (checked.failures && checked.failures.length > 0) throw new Error(`dynamic check refused: ${JSON.stringify(checked.failures)}`);
      const done = made ? run.update(made.id, made.outputs, checked.inputs) : run.create(checked.inputs);
      const err = await done.then(
        () => undefined,
        (e: unknown) => e as Error & { properties?: Props },
      );
      if (!err) throw new Error("dynamic: the change succeeded");
      // A partial-state error (the object made but failed) is recorded with its properties; any other error keeps the old state.
      return { message: err.message, kept: err.properties ?? (made ? undefined : null) };
    }
    case "pulumi": {
      await s.nativeReady();
      const urn = urnOf("native", type, name);
      const checked = await s.server.check(urn, made?.inputs ?? {}, pulumiInputs(inputs));
      if (failuresOf(checked).length > 0) throw new Error(`native Check refused: ${JSON.stringify(failuresOf(checked))}`);
      const news = propsOf(checked.getInputs());
      const done = made
        ? s.server.update({ id: made.id, urn, olds: made.outputs, news, oldInputs: made.inputs, timeoutSeconds: 600 })
        : s.server.create(urn, news, 600);
      const err = await done.then(
        () => undefined,
        (e: unknown) => e as grpc.ServiceError,
      );
      if (!err) throw new Error("native: the change succeeded");
      const partial = initFailureOf(err);
      return { message: err.details, kept: partial ? partial.properties : made ? undefined : null };
    }
    case "terraform": {
      const { typeName, schema, config, prior, planned } = await tfPlan(s, type, name, inputs, made);
      if (errorsOf(planned.diagnostics).length > 0) throw new Error(`terraform plan refused: ${JSON.stringify(errorsOf(planned.diagnostics))}`);
      const applied = await s.tofu.client.applyResourceChange({
        typeName,
        priorState: dv(schema, prior),
        plannedState: planned.plannedState,
        config: dv(schema, config),
        plannedPrivate: planned.plannedPrivate,
      });
      const errors = errorsOf(applied.diagnostics);
      if (errors.length === 0) throw new Error("terraform: the apply succeeded");
      // tofu records the state a failed apply answers; a null one keeps the prior state (none, for a create).
      const answered = decodedValue(schema, applied.newState);
      return { message: errors.map((e) => [e.summary, e.detail].filter(Boolean).join(": ")).join("\n"), kept: answered ?? (made ? undefined : null) };
    }
  }
}

function keyOf(part: string): string | number {
  if (part.startsWith(".")) return part.slice(1);
  if (part.startsWith('["')) return JSON.parse(part.slice(1, -1)) as string;
  if (part.startsWith("[")) return Number(part.slice(1, -1));
  return part;
}

/**
 * `base` with each path of `set` (`controlPlane.count`, `labels["bad key"]`, `policies[1].policy`)
 * set to its value, objects and lists made where missing; `undefined` removes the field. `base`
 * is not changed.
 */
export function withSet(base: Props, set: Props): Props {
  const out = structuredClone(base);
  for (const [path, value] of Object.entries(set)) {
    const keys = partsOf(path).map(keyOf);
    let at: Record<string | number, unknown> = out;
    for (const [i, key] of keys.slice(0, -1).entries()) {
      at[key] ??= typeof keys[i + 1] === "number" ? [] : {};
      at = at[key] as Record<string | number, unknown>;
    }
    const last = keys[keys.length - 1];
    if (value === undefined) delete at[last];
    else at[last] = structuredClone(value);
  }
  return out;
}
