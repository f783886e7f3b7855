// Command goclients talks to a running local control plane the way the platforms' own Go clients
// do and prints what it saw as one JSON object, for the vitest tests in test/unit/go-clients.test.ts
// to check. Usage: goclients <peloton|cmassh|vcluster|raw> <host:port>
//
// The generated packages under gen/ come from the repository's protos at build time
// (scripts/setup/go-clients.sh); nothing here is hand-written wire code except the raw HTTP/2 check.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// scenarios maps each subcommand to the calls it makes against the plane at the given address.
var scenarios = map[string]func(addr string) (map[string]any, error){
	"peloton":  runPeloton,
	"cmassh":   runCmassh,
	"vcluster": runVcluster,
	"raw":      runRaw,
}

func main() {
	if len(os.Args) != 3 || scenarios[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: goclients <peloton|cmassh|vcluster|raw> <host:port>")
		os.Exit(2)
	}
	seen, err := scenarios[os.Args[1]](os.Args[2])
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(seen); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
