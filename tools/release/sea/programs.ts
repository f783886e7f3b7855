/** One engine's program as a single executable. */
export interface SeaProgram {
  /** The executable's name, as its engine looks for it. */
  name: "terraform-provider-clusterform" | "pulumi-resource-clusterform";
  /** The engine's entry point (repository-relative TypeScript); its top level serves the plugin. */
  entry: string;
  /**
   * Modules the provider requires by a computed name, which no bundler can follow: the name the
   * code asks for -> the module to bundle under it (repository-relative file, or a package id).
   */
  dynamic: Record<string, string>;
  /** Files the program reads at run time, embedded as the executable's assets: asset key -> repository-relative file. */
  assets: Record<string, string>;
}

/** The two engines' programs (repository-relative, after `npm run build`). */
export function seaPrograms(): SeaProgram[] {
  return [terraformProgram(), pulumiProgram()];
}

function terraformProgram(): SeaProgram {
  // Kinds and their operations load with static import() specifiers (provider/kinds/index.ts): the
  // bundler follows them, so no module needs naming here.
  return {
    name: "terraform-provider-clusterform",
    entry: "provider/engines/terraform/main.ts",
    dynamic: {},
    assets: { "provider-schema.json": "dist/provider/engines/terraform/provider-schema.json" },
  };
}

function pulumiProgram(): SeaProgram {
  // server-hooks.ts and engine-log.ts load these from @pulumi/pulumi's folder (the instance it uses).
  const fromPulumi = [
    "@grpc/grpc-js",
    "google-protobuf/google/protobuf/struct_pb",
    "@pulumi/pulumi/proto/provider_pb",
    "@pulumi/pulumi/proto/engine_pb",
    "@pulumi/pulumi/proto/engine_grpc_pb",
  ];
  return {
    name: "pulumi-resource-clusterform",
    entry: "provider/engines/pulumi-native/main.ts",
    dynamic: Object.fromEntries(fromPulumi.map((id) => [id, id])),
    assets: { "package.json": "package.json", "schema.json": "schema.json" },
  };
}
