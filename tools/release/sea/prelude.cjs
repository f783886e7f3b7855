// The head of a single executable's main script (tools/release/sea/script.ts puts the bundled
// program after it, wrapped in a function whose `require` is `bundleRequire` below).
//
// A single executable application's own `require` loads built-in modules only. The bundle holds
// every other module; the few that the provider's code requires by a computed name (a kind's
// definition by type, grpc-js resolved from @pulumi/pulumi's folder) are looked up in the table the
// bundle registers under MODULES_KEY.
//
// When the blob is built with a startup snapshot, the program's modules are loaded while the
// snapshot is made, and node:http, node:https, node:http2 and node:tls cannot be in a snapshot
// (their bindings hold native handles). Those four are then handed out as stand-ins that know the
// module's property names and data (constants, METHODS) from the build, and reach the real module
// on first use, which is after the snapshot is deserialized at start. A module that calls into one
// of them while loading fails the build, naming the property.
"use strict";
const seaRequire = require;
const MODULES_KEY = Symbol.for("clusterform.sea.modules");
const BUILDING_KEY = Symbol.for("clusterform.sea.building");
const { startupSnapshot } = seaRequire("node:v8");
// True while the snapshot is made: this script runs either inside the executable or, for a
// snapshot, in the Node that writes the blob (where v8.startupSnapshot.isBuildingSnapshot() answers
// false in Node 24). The deserialized heap keeps this variable, so it is reset at start.
let building = !seaRequire("node:sea").isSea();
globalThis[BUILDING_KEY] = building;
if (building) {
  startupSnapshot.addDeserializeCallback(() => {
    building = false;
    globalThis[BUILDING_KEY] = false;
  });
}
const { isBuiltin } = seaRequire("node:module");
/** Name -> { keys, data } of each deferred built-in, written in by the build; {} without a snapshot. */
const DEFERRED = /* CLUSTERFORM_SEA_DEFERRED */ {};

const standIns = new Map();

function deferredBuiltin(name) {
  if (!standIns.has(name)) standIns.set(name, standIn(name));
  return standIns.get(name);
}

function standIn(name) {
  const shape = DEFERRED[name];
  let real;
  const load = () => {
    real ??= seaRequire(`node:${name}`);
    return real;
  };
  return new Proxy(
    {},
    {
      get(_target, key) {
        if (real || !building) return load()[key];
        if (typeof key === "string" && Object.hasOwn(shape.data, key)) return shape.data[key];
        if (key === "__esModule" || key === "default" || typeof key === "symbol") return undefined;
        throw new Error(`node:${name}.${key} is used while the program loads, so it cannot be in the startup snapshot (tools/release/sea/prelude.cjs)`);
      },
      has: (_target, key) => (real || !building ? key in load() : shape.keys.includes(key)),
      ownKeys: () => (real || !building ? Reflect.ownKeys(load()) : [...shape.keys]),
      getOwnPropertyDescriptor(_target, key) {
        if (real || !building) {
          const found = Reflect.getOwnPropertyDescriptor(load(), key);
          return found && { ...found, configurable: true };
        }
        return shape.keys.includes(key) ? { configurable: true, enumerable: true, writable: false, value: undefined } : undefined;
      },
    },
  );
}

function bundleRequire(id) {
  const bare = id.startsWith("node:") ? id.slice(5) : id;
  if (building && Object.hasOwn(DEFERRED, bare)) return deferredBuiltin(bare);
  if (isBuiltin(id)) return seaRequire(id);
  const load = globalThis[MODULES_KEY]?.[id];
  if (load) return load();
  throw new Error(`this executable does not hold the module "${id}" (add it to the program's dynamic modules in tools/release/sea/programs.ts)`);
}

// The provider resolves a few modules from @pulumi/pulumi's folder to load the very instance that
// package uses; inside the bundle there is one instance of each, found by its name.
bundleRequire.resolve = (id) => {
  if (isBuiltin(id) || globalThis[MODULES_KEY]?.[id] || id.endsWith("/package.json")) return id;
  const error = new Error(`Cannot find module '${id}' in this executable`);
  error.code = "MODULE_NOT_FOUND";
  throw error;
};
