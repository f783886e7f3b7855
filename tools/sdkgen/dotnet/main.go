// Command sdkgen-dotnet writes the .NET SDK of a Pulumi package schema, offline.
//
// Pulumi's .NET code generator left github.com/pulumi/pulumi/pkg/v3 after v3.225.1 (it moved to the
// pulumi-dotnet repository, whose modules the Go module proxy these machines reach does not serve),
// so this is a module of its own pinned at the last pkg/v3 that has it; ../main.go covers the other
// languages at the CLI's version. Usage: sdkgen-dotnet -schema schema.json -out DIR (writes DIR/dotnet).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "clusterform-sdkgen"

// refusingLoader fails on any reference to another package: generation is offline.
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

func run() error {
	schemaPath := flag.String("schema", "", "the Pulumi package schema (JSON)")
	out := flag.String("out", "", "the folder to write dotnet/ into")
	flag.Parse()
	if *schemaPath == "" || *out == "" {
		return errors.New("-schema and -out are required")
	}
	raw, err := os.ReadFile(*schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s is not a Pulumi package schema: %w", *schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, refusingLoader{}, schema.ValidationOptions{})
	if err != nil {
		return fmt.Errorf("%s: %w", *schemaPath, err)
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s is not a valid Pulumi package schema: %s", *schemaPath, diags.Error())
	}
	files, err := dotnet.GeneratePackage(tool, pkg, nil, nil)
	if err != nil {
		return fmt.Errorf("generating the dotnet SDK: %w", err)
	}
	dir := filepath.Join(*out, "dotnet")
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
	fmt.Fprintf(os.Stderr, "sdkgen: dotnet: %d files in %s\n", len(files), dir)
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}
