// Command sdkgen writes the SDK of each Pulumi language for a package schema, offline.
//
// It calls Pulumi's own code generators in process (the packages behind `pulumi package gen-sdk`),
// because the Node.js language host the project's set-up builds lacks the GeneratePackage RPC that
// gen-sdk needs (see ../../docs/languages.md, "A Go program", and ../../docs/sdks.md).
//
// Usage: sdkgen -schema schema.json -out DIR [-languages nodejs,go,python]
//
// Each language goes to DIR/<language>; DIR/<language> is replaced as a whole so files of a field
// that was removed from the schema do not linger.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
)

// pulumiSDK is the Go SDK module every generated Go SDK requires.
const pulumiSDK = "github.com/pulumi/pulumi/sdk/v3"

// tool is the name the generators write into the "do not edit" banner of every file.
const tool = "clusterform-sdkgen"

// generators maps a language name to the in-process generator of that language.
var generators = map[string]func(pkg *schema.Package) (map[string][]byte, error){
	"nodejs": func(pkg *schema.Package) (map[string][]byte, error) {
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, refusingLoader{})
	},
	"go": generateGo,
	"python": func(pkg *schema.Package) (map[string][]byte, error) {
		return python.GeneratePackage(tool, pkg, nil, refusingLoader{})
	},
}

// generateGo writes the Go SDK as a Go module of its own (go.mod included: see bind) requiring the Go SDK at the version this program was built with,
// the version of the project's Pulumi CLI, instead of the generator's own default.
func generateGo(pkg *schema.Package) (map[string][]byte, error) {
	files, err := gogen.GeneratePackage(tool, pkg, nil)
	if err != nil {
		return nil, err
	}
	version, err := builtWith(pulumiSDK)
	if err != nil {
		return nil, err
	}
	mod, err := modfile.Parse("go.mod", files["go.mod"], nil)
	if err != nil {
		return nil, fmt.Errorf("the generated go.mod: %w", err)
	}
	if err := mod.AddRequire(pulumiSDK, version); err != nil {
		return nil, err
	}
	if files["go.mod"], err = mod.Format(); err != nil {
		return nil, err
	}
	return files, nil
}

// builtWith returns the version of a module this program was built with.
func builtWith(module string) (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", errors.New("sdkgen was built without module information")
	}
	for _, dep := range info.Deps {
		if dep.Path == module {
			return dep.Version, nil
		}
	}
	return "", fmt.Errorf("sdkgen was not built with %s", module)
}

// refusingLoader is the schema loader for a package that references no other package: the project
// must generate offline, so a reference to another package is an error instead of a plugin download.
type refusingLoader struct{}

func refuse(name string) error {
	return fmt.Errorf("the schema references package %q; sdkgen loads no other packages (offline)", name)
}

func (refusingLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, refuse(pkg)
}

func (refusingLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, refuse(d.Name)
}

func (refusingLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, refuse(pkg)
}

func (refusingLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, refuse(d.Name)
}

// bind reads and validates the schema. Each generator records its own language data in the
// package, so every language gets a freshly bound copy.
func bind(path string) (*schema.Package, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s is not a Pulumi package schema: %w", path, err)
	}
	pkg, diags, err := schema.BindSpec(spec, refusingLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s is not a valid Pulumi package schema: %s", path, diags.Error())
	}
	if pkg.Version == nil {
		return nil, fmt.Errorf("%s: the schema has no \"version\"; the SDKs carry the package's version", path)
	}
	// As a "support pack" every generator writes a complete package: the schema's version in the
	// npm package.json, setup.py and pulumi-plugin.json (instead of a ${VERSION} placeholder for a
	// release pipeline to fill in), and a go.mod for the Go SDK.
	pkg.SupportPack = true
	return pkg, nil
}

// write replaces dir with the generated files.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for name, body := range files {
		target := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, body, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func known() string {
	names := make([]string, 0, len(generators))
	for name := range generators {
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func run() error {
	schemaPath := flag.String("schema", "", "the Pulumi package schema (JSON)")
	out := flag.String("out", "", "the folder to write <language>/ folders into")
	langs := flag.String("languages", "nodejs,go,python", "comma-separated languages: "+known())
	flag.Parse()
	if *schemaPath == "" || *out == "" {
		return errors.New("-schema and -out are required")
	}
	selected := strings.Split(*langs, ",")
	for _, lang := range selected {
		if generators[lang] == nil {
			return fmt.Errorf("-languages: unknown language %q; known: %s", lang, known())
		}
	}
	for _, lang := range selected {
		pkg, err := bind(*schemaPath)
		if err != nil {
			return err
		}
		files, err := generators[lang](pkg)
		if err != nil {
			return fmt.Errorf("generating the %s SDK: %w", lang, err)
		}
		if err := write(filepath.Join(*out, lang), files); err != nil {
			return fmt.Errorf("writing the %s SDK: %w", lang, err)
		}
		fmt.Fprintf(os.Stderr, "sdkgen: %s: %d files in %s\n", lang, len(files), filepath.Join(*out, lang))
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}
