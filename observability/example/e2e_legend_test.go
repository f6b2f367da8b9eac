package main

import "regexp"

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
