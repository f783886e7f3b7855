// Command sdkgen-dotnet writes the .NET SDK of a Pulumi package schema, offline.
//
// Pulumi's .NET code generator left github.com/pulumi/pulumi/pkg/v3 after v3.225.1 (it moved to the
// pulumi-dotnet repository, whose modules the Go module proxy these machines reach does not serve),
// so this is a module of its own pinned at the last pkg/v3 that has it; ../main.go covers the other
// languages at the CLI's version. Usage: sdkgen-dotnet -schema schema.json -out DIR (writes DIR/dotnet).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "clusterform-sdkgen"

// offline answers the HTTP requests of the .NET generator, which downloads the package's logo
// (Pulumi's own when the schema names none) to put into the NuGet package. Generation must not
// reach the internet: a logo gets a plain 64x64 image drawn here, any other request fails.
type offline struct{}

func (offline) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || !strings.HasSuffix(req.URL.Path, ".png") {
		return nil, fmt.Errorf("sdkgen is offline: refusing %s %s", req.Method, req.URL)
	}
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for x := 0; x < 64; x++ {
		for y := 0; y < 64; y++ {
			img.Set(x, y, color.RGBA{R: 0x3b, G: 0x6e, B: 0xa5, A: 0xff})
		}
	}
	var body bytes.Buffer
	if err := png.Encode(&body, img); err != nil {
		return nil, err
	}
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"image/png"}}, Body: io.NopCloser(&body), Request: req,
	}, nil
}

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
	http.DefaultTransport = offline{}
	http.DefaultClient.Transport = offline{}
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
