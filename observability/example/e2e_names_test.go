package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// seriesName matches the names of toolerr's series and recorded series in
// PromQL.
var seriesName = regexp.MustCompile(`toolerr[_:][a-z0-9_:]*[a-z0-9]`)

// recordedSources maps each series recorded by toolerr.rules.yml to the
// series its expression reads.
func recordedSources(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "prometheus", "toolerr.rules.yml"))
	require.NoError(t, err)
	out := map[string][]string{}
	record := ""
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(line, "- record: "); ok {
			record = name
			continue
		}
		if expr, ok := strings.CutPrefix(line, "expr: "); ok && record != "" {
			out[record] = seriesName.FindAllString(expr, -1)
			record = ""
		}
	}
	require.NotEmpty(t, out, "toolerr.rules.yml records no series")
	return out
}

// metricsOf returns the series an expression reads, recorded series
// followed to their own sources, the recorded names included.
func metricsOf(expr string, sources map[string][]string) []string {
	var out []string
	var add func(name string)
	add = func(name string) {
		if slices.Contains(out, name) {
			return
		}
		out = append(out, name)
		for _, s := range sources[name] {
			add(s)
		}
	}
	for _, name := range seriesName.FindAllString(expr, -1) {
		add(name)
	}
	return out
}

// readsPending reports whether expr reads a series of notYetEmitted, so
// that it may answer nothing in this branch.
func readsPending(expr string, sources map[string][]string) bool {
	return slices.ContainsFunc(metricsOf(expr, sources), func(m string) bool { return slices.Contains(notYetEmitted, m) })
}

// legendLabel matches a label in a Grafana legend format.
var legendLabel = regexp.MustCompile(`\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}`)

// legendLabels returns the labels a Grafana legend format shows.
func legendLabels(legend string) []string {
	var out []string
	for _, m := range legendLabel.FindAllStringSubmatch(legend, -1) {
		out = append(out, m[1])
	}
	return out
}
