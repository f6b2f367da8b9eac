// Command gendashboard writes toolerr's Grafana dashboard as JSON, built by
// github.com/toolerr/toolerr/observability/grafana:
//
//	go run ./cmd/gendashboard -o grafana/toolerr.json
//
// Without -o it writes to standard output.
package main

import (
	"flag"
	"io"
	"log"
	"os"

	"github.com/toolerr/toolerr/observability/grafana"
)

func main() {
	out := flag.String("o", "", "file to write; standard output when empty")
	flag.Parse()
	if err := run(*out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run writes the dashboard to the file out, or to stdout when out is "".
func run(out string, stdout io.Writer) error {
	b, err := grafana.JSON()
	if err != nil {
		return err
	}
	if out == "" {
		_, err = stdout.Write(b)
		return err
	}
	return os.WriteFile(out, b, 0o644)
}
