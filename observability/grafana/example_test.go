package grafana_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/toolerr/toolerr/observability/grafana"
)

// ExampleJSON builds the dashboard JSON that toolerr.json holds, ready
// for Grafana's import.
func ExampleJSON() {
	b, err := grafana.JSON()
	if err != nil {
		log.Fatal(err)
	}
	var d struct {
		UID    string `json:"uid"`
		Panels []struct {
			Type  string `json:"type"`
			Title string `json:"title"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.UID)
	for _, p := range d.Panels {
		if p.Type == "row" {
			fmt.Println(p.Title)
		}
	}
	// Output:
	// toolerr-overview
	// Tools
	// Upstream
	// Retrygate
	// Idempotency
	// Sanitization
}
