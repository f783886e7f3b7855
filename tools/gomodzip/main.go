// Command gomodzip writes a Go module's files as a module proxy serves them (GOPROXY protocol):
// <out>/<module>/@v/list, <version>.info, <version>.mod and <version>.zip, the zip made by
// golang.org/x/mod/zip (the code the go command itself uses), so `go get <module>@<version>` with
// GOPROXY pointing at <out> (a folder served over HTTP, or file://) verifies and uses it.
//
// Usage: gomodzip -dir <module folder> -module <path> -version vX.Y.Z -time <RFC 3339> -out <folder>
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", "", "the module's folder (holding go.mod)")
	path := flag.String("module", "", "the module path")
	version := flag.String("version", "", "the version, vX.Y.Z")
	when := flag.String("time", "", "the version's time (RFC 3339), written to the .info file")
	out := flag.String("out", "", "the proxy folder to write into")
	flag.Parse()
	if err := run(*dir, *path, *version, *when, *out); err != nil {
		fmt.Fprintf(os.Stderr, "gomodzip: %v\n", err)
		os.Exit(1)
	}
}

func run(dir, path, version, when, out string) error {
	if dir == "" || path == "" || version == "" || when == "" || out == "" {
		return fmt.Errorf("-dir, -module, -version, -time and -out are all required")
	}
	mv := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	versions := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(versions, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(versions, version+".zip"))
	if err != nil {
		return err
	}
	if err := zip.CreateFromDir(zipFile, mv, dir); err != nil {
		zipFile.Close()
		return err
	}
	if err := zipFile.Close(); err != nil {
		return err
	}
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(versions, version+".mod"), goMod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(map[string]string{"Version": version, "Time": when})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(versions, version+".info"), info, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(versions, "list"), []byte(version+"\n"), 0o644)
}
