package prometheus_test

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/toolerr/toolerr/observability/prometheus"
)

// ExampleRules lists the alerts of the rules file, as a deployment tool
// embedding it would.
func ExampleRules() {
	s := bufio.NewScanner(bytes.NewReader(prometheus.Rules()))
	for s.Scan() {
		if name, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "- alert: "); ok {
			fmt.Println(name)
		}
	}
	// Output:
	// ToolerrUpstreamUnmapped
	// ToolerrToolErrorRate
	// ToolerrBreakerStuckOpen
	// ToolerrRetryBudgetExhausted
	// ToolerrIdempotencyStoreUnavailable
}
