import { pulumiName } from "../../core/definition/describe";
import type { Kind } from "../../core/definition/kind";
import type { Lookup } from "../../core/definition/lookup";
import type { Field } from "../../core/definition/values";
import { Emitter, kebab, kindFile } from "./typescript-sdk";

// The native SDK's functions (`sdk/native/<module>.ts`): each lookup of a platform's kinds as
// `getX(args)` (a promise of plain values) and `getXOutput(args)` (an Output, secrets kept secret),
// both calling the plugin's Invoke with the token `clusterform:<module>:<name>`.

const upper = (s: string) => s[0].toUpperCase() + s.slice(1);

/** What one platform's functions add to its native file: their declarations and the types they take from the kinds' files. */
export interface NativeFunctions {
  /** Type names to import, by the file (`../cmassh/cluster`) that declares them. */
  imports: Map<string, Set<string>>;
  text: string[];
}

/** The functions of every lookup of a platform's kinds. */
export function nativeFunctions(module: string, kinds: readonly Kind[]): NativeFunctions {
  const declaredIn = new Map<string, string>();
  for (const kind of kinds) {
    const file = `../${module}/${kebab(kind.type.split(":")[1])}`;
    const own = kind.type.split(":")[1];
    // The class and its Args are the native file's own (the class) or imported already (the Args).
    for (const name of kindFile(kind).exports) if (name !== own && name !== `${own}Args` && !declaredIn.has(name)) declaredIn.set(name, file);
  }
  const emitter = new Emitter(new Set([...declaredIn.keys(), "Timeouts"]));
  const text: string[] = [];
  for (const kind of kinds) for (const lookup of kind.lookups ?? []) text.push(functionText(module, lookup, emitter));
  const body = [...emitter.declarations(), ...text].join("\n").replace(/\/\*\*[\s\S]*?\*\//g, "");
  const imports = new Map<string, Set<string>>();
  for (const [name, file] of declaredIn) {
    if (!new RegExp(`\\b${name}\\b`).test(body)) continue;
    imports.set(file, (imports.get(file) ?? new Set()).add(name));
  }
  return { imports, text: [...emitter.declarations(), ...text] };
}

function doc(text: string, indent = ""): string {
  return `${indent}/** ${text.replace(/\*\//g, "*\\/")} */\n`;
}

function functionText(module: string, lookup: Lookup, emitter: Emitter): string {
  const Name = upper(lookup.name);
  const token = `clusterform:${module}:${lookup.name}`;
  const fields = Object.entries(lookup.args);
  const anyRequired = fields.some(([, f]) => f.required);
  const arg = (key: string, f: Field, type: string) => `${doc(f.description, "  ")}  ${pulumiName(key, f)}${f.required ? "" : "?"}: ${type};`;
  const result = Object.entries(lookup.result).map(
    ([key, f]) => `${doc(f.description + (f.secret ? " Secret." : ""), "  ")}  readonly ${pulumiName(key, f)}${f.required ? "" : "?"}: ${emitter.plain(f.value.type)};`,
  );
  const pass = fields.length > 0 ? `{ ${fields.map(([key, f]) => `${pulumiName(key, f)}: args.${pulumiName(key, f)}`).join(", ")} }` : "{}";
  const argsDefault = anyRequired ? "" : " = {}";
  // A function without arguments takes only the options, as Pulumi's own generators write it.
  const params = (argsType: string) => (fields.length > 0 ? `args: ${argsType}${argsDefault}, ` : "");
  return [
    ...(fields.length > 0
      ? [
          `${doc(`Arguments of {@link ${lookup.name}}.`)}export interface ${Name}Args {\n${fields.map(([k, f]) => arg(k, f, emitter.plain(f.value.type))).join("\n")}\n}\n`,
          `${doc(`Arguments of {@link ${lookup.name}Output}.`)}export interface ${Name}OutputArgs {\n${fields.map(([k, f]) => arg(k, f, emitter.input(f.value.type))).join("\n")}\n}\n`,
        ]
      : []),
    `${doc(`What {@link ${lookup.name}} answers.`)}export interface ${Name}Result {\n${result.join("\n")}\n}\n`,
    `${doc(`${lookup.description} Only reads (\`${token}\`).`)}export function ${lookup.name}(${params(`${Name}Args`)}opts?: pulumi.InvokeOptions): Promise<${Name}Result> {`,
    `  return pulumi.runtime.invoke(${JSON.stringify(token)}, ${pass}, opts);`,
    "}",
    "",
    `${doc(`{@link ${lookup.name}} as an Output: it waits for its arguments, and a secret result stays secret.`)}export function ${lookup.name}Output(${params(`${Name}OutputArgs`)}opts?: pulumi.InvokeOutputOptions): pulumi.Output<${Name}Result> {`,
    `  return pulumi.runtime.invokeOutput(${JSON.stringify(token)}, ${pass}, opts);`,
    "}",
    "",
  ].join("\n");
}
