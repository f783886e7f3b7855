import { nativeToken, pulumiName, tokenParts } from "../../core/definition/describe";
import type { Kind } from "../../core/definition/kind";
import { CONFIG_VARIABLES } from "../../core/definition/provider-config";
import { GET_MARKER } from "../../engines/pulumi-native/tokens";
import { nativeFunctions } from "./typescript-functions";
import { Emitter, GENERATED_HEADER, kebab } from "./typescript-sdk";

// Generates `sdk/native/`: the same resources for the native plugin `pulumi-resource-clusterform`,
// with the Args interfaces of the dynamic classes (one definition of every field), registered under
// the plugin's tokens, plus the explicit `Provider` resource.

/** `sdk/native/<module>.ts`: the native classes of one platform. */
export function nativeModuleFile(module: string, kinds: readonly Kind[]): { path: string; text: string } {
  const imports: string[] = [];
  /** Type names the file takes from the dynamic classes' files, by file. */
  const imported = new Map<string, Set<string>>();
  const classes: string[] = [];
  for (const kind of kinds) {
    const { name } = tokenParts(kind);
    imports.push(`import type { ${name}Args } from "../${module}/${kebab(name)}";`);
    const emitter = new Emitter(new Set(["Timeouts"]));
    const declared: string[] = [];
    for (const [key, f] of Object.entries(kind.allInputs)) {
      if (key === "timeouts" || key in kind.outputs) continue;
      declared.push(`  declare readonly ${pulumiName(key, f)}: pulumi.Output<${emitter.plain(f.value.type)}${f.required || f.computed ? "" : " | undefined"}>;`);
    }
    for (const [key, o] of Object.entries(kind.outputs)) {
      declared.push(`  declare readonly ${key}: pulumi.Output<${emitter.plain(o.type)}${o.optional ? " | undefined" : ""}>;`);
    }
    const used = declared.join("\n");
    const typeNames = emitter.names().filter((t) => new RegExp(`\\b${t}\\b`).test(used));
    const file = `../${module}/${kebab(name)}`;
    imported.set(file, new Set([...(imported.get(file) ?? []), ...typeNames]));
    const props = [
      ...Object.entries(kind.allInputs).map(([key, f]) => `        ${pulumiName(key, f)}: args.${pulumiName(key, f)},`),
      ...Object.keys(kind.outputs)
        .filter((key) => !(key in kind.allInputs))
        .map((key) => `        ${key}: undefined,`),
    ];
    const anyRequired = Object.values(kind.allInputs).some((f) => f.required);
    const getKeys = [...new Set([...Object.entries(kind.allInputs).map(([key, f]) => pulumiName(key, f)), ...Object.keys(kind.outputs)])];
    const given = [
      "      {",
      ...props,
      "      }",
    ];
    classes.push(
      [
        `/** ${name} through the native plugin (\`${nativeToken(kind)}\`): see the dynamic class of the same name. */`,
        `export class ${name} extends pulumi.CustomResource {`,
        ...declared,
        "",
        `  constructor(name: string, args: ${name}Args${anyRequired ? "" : " = {}"}, opts?: pulumi.CustomResourceOptions) {`,
        "    super(",
        `      ${JSON.stringify(nativeToken(kind))},`,
        "      name,",
        // A get sends only the marker, but names every property, so that each output resolves.
        `      args === (GET as unknown) ? { ...GET, ${getKeys.map((k) => `${k}: undefined`).join(", ")} } : ${given.join("\n").trimStart()},`,
        "      // The dynamic class's type as an alias: a stack written with it moves to this class with no change on the platform.",
        `      pulumi.mergeOptions({ aliases: [{ type: ${JSON.stringify(`pulumi-nodejs:dynamic/${kind.type}`)} }] }, opts),`,
        "    );",
        "  }",
        "",
        "  /**",
        `   * Reads the live ${name} \`id\` (its import id: ${kind.importId?.shape ?? "its id"}) into the program without managing it: the`,
        "   * engine reads it on every run and never changes or deletes it.",
        "   */",
        `  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): ${name} {`,
        `    return new ${name}(name, GET as unknown as ${name}Args, { ...opts, id });`,
        "  }",
        "}",
        "",
      ].join("\n"),
    );
  }
  const functions = nativeFunctions(module, kinds);
  for (const [file, names] of functions.imports) imported.set(file, new Set([...(imported.get(file) ?? []), ...names]));
  for (const [file, names] of imported) if (names.size > 0) imports.push(`import type { ${[...names].join(", ")} } from "${file}";`);
  const getMarker = [
    "/** What a static get sends: the plugin reads the object without taking it for an import. */",
    `const GET = { ${GET_MARKER}: true };`,
    "",
  ];
  const text = [GENERATED_HEADER, 'import * as pulumi from "@pulumi/pulumi";', ...imports, "", ...getMarker, ...classes, ...functions.text].join("\n");
  return { path: `sdk/native/${module}.ts`, text };
}

/** `sdk/native/provider.ts`: the explicit provider resource, its inputs the configuration variables. */
export function nativeProviderFile(): { path: string; text: string } {
  const fields = CONFIG_VARIABLES.map(
    (c) => `  /** ${c.description}${c.env ? ` Falls back to \`${c.env}\`.` : ""}${c.secret ? " Secret." : ""} */\n  ${c.key}?: pulumi.Input<string>;`,
  );
  const secretKeys = CONFIG_VARIABLES.filter((c) => c.secret).map((c) => c.key);
  const text = [
    GENERATED_HEADER,
    'import * as pulumi from "@pulumi/pulumi";',
    "",
    "/** Arguments of {@link Provider}: where each platform's API is and how to authenticate to it. */",
    "export interface ProviderArgs {",
    ...fields,
    "}",
    "",
    "/** Credentials: kept secret in state whatever the program passes. */",
    `const SECRET_KEYS = ${JSON.stringify(secretKeys)} as const;`,
    "",
    "/**",
    " * An explicit Clusterform provider (the native plugin `pulumi-resource-clusterform`) with its own",
    " * endpoints and credentials; pass it as the `provider` option. Without one, resources use the",
    " * default provider, configured by stack config `clusterform:*`.",
    " */",
    "export class Provider extends pulumi.ProviderResource {",
    "  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {",
    "    const props: pulumi.Inputs = { ...args };",
    "    for (const key of SECRET_KEYS) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);",
    '    super("clusterform", name, props, opts);',
    "  }",
    "}",
    "",
  ].join("\n");
  return { path: "sdk/native/provider.ts", text };
}

/** `sdk/native/index.ts`. */
export function nativeIndexFile(modules: readonly string[]): { path: string; text: string } {
  const text = [
    GENERATED_HEADER,
    "/**",
    " * Clusterform's resources through the native plugin `pulumi-resource-clusterform` (import, customTimeouts,",
    ' * cancellation): `import { cmassh, Provider } from "clusterform/native"`. The Args types are the dynamic classes\'.',
    " * @packageDocumentation",
    " */",
    ...modules.map((m) => `export * as ${m} from "./${m}";`),
    'export { Provider, type ProviderArgs } from "./provider";',
    "",
  ].join("\n");
  return { path: "sdk/native/index.ts", text };
}
