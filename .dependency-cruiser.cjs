// The layers of the package and the directions imports may take between them (docs/design.md,
// "Layers"). Checked by `npm run lint:layers`, which the test command runs next to the lint step;
// test/unit/layers.test.ts plants violations in a small tree and checks each is reported.
//
// Paths are relative to the repository root. A rule's `from` is production code only: tests (and
// their helpers, the `testing.ts` files the build leaves out) may import any layer, and so may
// test/, bench/, examples/, tools/ and scripts/, which are outside the package's layers. The
// no-circular rule alone covers every file, tests included.
//
// Type-only imports count like any other: a type import still ties a layer to another's
// definitions, and the core must not name a Pulumi or Terraform type at all.

/** Test code, and folders outside the package's layers: no layer rule applies to it. */
const TESTS = ["\\.test\\.ts$", "(^|/)testing\\.ts$", "^(test|bench|examples|tools|scripts)/"];

/** Any npm package. Which packages a layer may use is the concern of the last two rules only. */
const PACKAGES = "^node_modules/";

/**
 * A rule that lets production code under `from` import only the paths in `allowed` (and Node's
 * built-in modules).
 */
function onlyImports(name, comment, from, allowed) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: from, pathNot: TESTS },
    to: { dependencyTypesNot: ["core"], pathNot: allowed },
  };
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import circle anywhere, production code and tests, type-only imports included.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    onlyImports(
      "common-imports-nothing",
      "common/ holds the start-up checks every command runs first (node-version.ts): it loads no package and nothing of the project, so it can run on any Node.",
      "^common/",
      ["^common/"],
    ),
    onlyImports(
      "gen-is-generated-only",
      "proto/gen/ is generated from proto/ (npm run generate) and imports only itself and the protobuf runtime.",
      "^proto/gen/",
      ["^proto/gen/", "^node_modules/@bufbuild/"],
    ),
    onlyImports(
      "core-imports-only-core",
      "provider/core/ is the engine-neutral core: it imports nothing of the provider outside itself (no client, kind, engine or CLI) and no generated message.",
      "^provider/core/",
      ["^provider/core/", PACKAGES],
    ),
    onlyImports(
      "clients-import-core-errors-deadline-retry",
      "provider/clients/ talk to the platforms: they import the generated messages and, of the core, only its error model, deadlines and retries.",
      "^provider/clients/",
      ["^provider/clients/", "^provider/core/(errors|deadline|retry)\\.ts$", "^proto/gen/", PACKAGES],
    ),
    onlyImports(
      "kinds-import-core-and-clients",
      "provider/kinds/ are the kinds: each answers the core's contract over its platform's client; no kind knows an engine or the CLI.",
      "^provider/kinds/",
      ["^provider/kinds/", "^provider/core/", "^provider/clients/", "^proto/gen/", PACKAGES],
    ),
    onlyImports(
      "engines-translate-only",
      "An engine adapter translates its engine's messages to the core's: it imports the core, the one map of kinds (provider/kinds/index.ts), common/ and the generated messages, never a client or another engine (pulumi-common is shared by the two Pulumi adapters).",
      "^provider/engines/([^/]+)/",
      [
        "^provider/engines/$1/",
        "^provider/engines/pulumi-common/",
        "^provider/core/",
        "^provider/kinds/index\\.ts$",
        "^common/",
        "^proto/gen/",
        PACKAGES,
      ],
    ),
    onlyImports(
      "cli-sits-on-top",
      "provider/cli/ (the plan command, the policy pack, the code generators) may import every provider layer below it, never the SDK or the emulator.",
      "^provider/cli/",
      ["^provider/(cli|engines|kinds|clients|core)/", "^common/", "^proto/gen/", PACKAGES],
    ),
    onlyImports(
      "provider-entry-is-the-dynamic-engine",
      "provider/index.ts, the `clusterform/provider` entry every stored `__provider` requires, re-exports the dynamic engine and nothing else.",
      "^provider/index\\.ts$",
      ["^provider/engines/dynamic/"],
    ),
    onlyImports(
      "provider-code-lives-in-a-layer",
      "Every provider file is in core/, clients/, kinds/, engines/ or cli/ (or is provider/index.ts): a file elsewhere belongs to no layer.",
      "^provider/(?!(core|clients|kinds|engines|cli)/|index\\.ts$)",
      [],
    ),
    onlyImports(
      "sdk-imports-only-sdk-and-naming",
      "sdk/ is loaded into every user program: it imports itself, Pulumi and, of the provider, only the ownership marker's formula (provider/core/naming.ts). The implementation is reached at run time through `require(\"clusterform/provider\")`.",
      "^sdk/",
      ["^sdk/", "^provider/core/naming\\.ts$", PACKAGES],
    ),
    onlyImports(
      "emulator-shares-only-generated-messages",
      "The emulator shares only the generated messages (and the start-up checks) with the provider, never its logic: a bug must not hide by being on both sides.",
      "^emulator/",
      ["^emulator/", "^proto/gen/", "^common/", PACKAGES],
    ),
    {
      name: "pulumi-only-in-pulumi-layers",
      comment: "Pulumi's packages are imported only by the Pulumi adapters, the CLI and the SDK: the core, clients, kinds, the Terraform adapter and the emulator never name a Pulumi type.",
      severity: "error",
      from: { path: "^(common|proto/gen|emulator|provider/(core|clients|kinds|engines/terraform))/", pathNot: TESTS },
      to: { path: "^node_modules/@pulumi/" },
    },
    {
      name: "terraform-protocol-only-in-terraform-engine",
      comment: "The Terraform plugin protocol's messages (tfplugin6, goplugin) are the Terraform adapter's alone.",
      severity: "error",
      from: {
        path: "^(common|sdk|emulator|provider/(core|clients|kinds|cli|engines/(?!terraform/)[^/]+))/",
        pathNot: TESTS,
      },
      to: { path: "^proto/gen/(tfplugin6|goplugin)/" },
    },
    {
      name: "no-test-code-in-production",
      comment: "Production code never imports a test, a test helper (testing.ts, left out of the build) or the folders outside the package.",
      severity: "error",
      from: { pathNot: TESTS },
      to: { path: TESTS },
    },
    {
      name: "resolvable",
      comment: "Every import of the package's code resolves to a file or a package.",
      severity: "error",
      from: { pathNot: TESTS },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^dist/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are dependencies too (see above).
    tsPreCompilationDeps: true,
    // Packages resolve through their `exports` as Node's require does, so a package's own files
    // (node_modules/<name>/dist/...) are reached.
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["require", "node", "default"] },
  },
};
