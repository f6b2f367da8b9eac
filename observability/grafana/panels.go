package grafana

// panel is one panel of the dashboard: the question it answers and the
// PromQL that answers it. Queries use the recording rules of
// observability/prometheus/toolerr.rules.yml where an alert asks the same
// question, so the panel shows what the alert sees.
type panel struct {
	title       string
	description string
	unit        string // Grafana unit id
	queries     []query
	breaker     bool // a state timeline of breaker states, not a time series
}

// query is one target of a panel.
type query struct {
	expr   string
	legend string
}

// section is a row of panels.
type section struct {
	title  string
	panels []panel
}

// sections returns the dashboard's rows, top to bottom.
func sections() []section {
	return []section{
		{title: "Tools", panels: []panel{
			{
				title:       "Server-side error ratio by tool",
				description: "Share of a tool's calls that failed with an internal, upstream or transient error over 5 minutes (alert ToolerrToolErrorRate above 5 %).",
				unit:        "percentunit",
				queries:     []query{{expr: `toolerr:tool_server_error_ratio:rate5m`, legend: "{{gen_ai_tool_name}}"}},
			},
			{
				title:       "Tool calls by tool",
				description: "Calls per second that reached toolerr, by tool.",
				unit:        "reqps",
				queries:     []query{{expr: `sum by (gen_ai_tool_name) (rate(toolerr_tool_calls_total[$__rate_interval]))`, legend: "{{gen_ai_tool_name}}"}},
			},
			{
				title:       "Errors by tool and code",
				description: "Errors returned to tool callers per second, by tool and toolerr code.",
				unit:        "reqps",
				queries:     []query{{expr: `sum by (gen_ai_tool_name, error_type) (rate(toolerr_errors_total[$__rate_interval]))`, legend: "{{gen_ai_tool_name}} {{error_type}}"}},
			},
			{
				title:       "Errors by category",
				description: "Errors per second by category: validation, not_found, auth, permission, precondition and conflict are the caller's; internal, upstream and transient are the service's.",
				unit:        "reqps",
				queries:     []query{{expr: `sum by (toolerr_category) (rate(toolerr_errors_total[$__rate_interval]))`, legend: "{{toolerr_category}}"}},
			},
			{
				title:       "Errors by vendor",
				description: "Errors per second that a downstream vendor caused, by vendor and code.",
				unit:        "reqps",
				queries:     []query{{expr: `sum by (toolerr_vendor, error_type) (rate(toolerr_errors_total{toolerr_vendor!=""}[$__rate_interval]))`, legend: "{{toolerr_vendor}} {{error_type}}"}},
			},
		}},
		{title: "Upstream", panels: []panel{
			{
				title:       "Unmapped responses by vendor and status",
				description: "Downstream responses no translator mapped, per second (alert ToolerrUpstreamUnmapped above 5 per 5 minutes for a vendor): add a translator mapping.",
				unit:        "reqps",
				queries:     []query{{expr: `toolerr:upstream_unmapped:rate5m`, legend: "{{toolerr_vendor}} {{http_response_status_code}}"}},
			},
		}},
		{title: "Retrygate", panels: []panel{
			{
				title:       "Retries by host and code",
				description: "Retries per second, by host and the code of the failure retried.",
				unit:        "reqps",
				queries:     []query{{expr: `sum by (server_address, error_type) (rate(toolerr_retrygate_retries_total[$__rate_interval]))`, legend: "{{server_address}} {{error_type}}"}},
			},
			{
				title:       "Retries the budget refused",
				description: "Retries per second the retry budget refused, by process and host (alert ToolerrRetryBudgetExhausted when it lasts 10 minutes).",
				unit:        "reqps",
				queries:     []query{{expr: `toolerr:retrygate_budget_refused:rate5m`, legend: "{{instance}} {{server_address}}"}},
			},
			{
				title:       "Breaker state per host",
				description: "The breaker of each host in each process: closed, half_open or open (alert ToolerrBreakerStuckOpen when it does not close for 10 minutes).",
				queries:     []query{{expr: `toolerr:retrygate_breaker_state:max`, legend: "{{instance}} {{server_address}}"}},
				breaker:     true,
			},
			{
				title:       "Breaker transitions",
				description: "Breaker transitions per second, by host and the state entered.",
				unit:        "reqps",
				queries:     []query{{expr: `sum by (server_address, toolerr_breaker_state) (rate(toolerr_retrygate_breaker_transitions_total[$__rate_interval]))`, legend: "{{server_address}} {{toolerr_breaker_state}}"}},
			},
		}},
		{title: "Idempotency", panels: []panel{
			{
				title:       "Replays and conflicts",
				description: "Stored responses replayed, and requests refused as conflicts (in_flight, payload_mismatch, duplicate_action), per second.",
				unit:        "reqps",
				queries: []query{
					{expr: `sum(rate(toolerr_idempotency_replays_total[$__rate_interval]))`, legend: "replayed"},
					{expr: `sum by (toolerr_idempotency_conflict) (rate(toolerr_idempotency_conflicts_total[$__rate_interval]))`, legend: "{{toolerr_idempotency_conflict}}"},
				},
			},
			{
				title:       "Store unavailable",
				description: "Idempotency store calls that failed or timed out, per second, by operation and whether the request went ahead without the store (alert ToolerrIdempotencyStoreUnavailable).",
				unit:        "reqps",
				queries:     []query{{expr: `toolerr:idempotency_store_unavailable:rate5m`, legend: "{{job}} {{toolerr_idempotency_store_operation}} fail_open={{toolerr_idempotency_fail_open}}"}},
			},
		}},
		{title: "Sanitization", panels: []panel{
			{
				title:       "Truncated observations by stage",
				description: "Upstream bodies past the capture cap (capture) and texts cut to the sanitizer's output cap (text), per second.",
				unit:        "reqps",
				queries:     []query{{expr: `sum by (toolerr_truncation_stage) (rate(toolerr_observations_truncated_total[$__rate_interval]))`, legend: "{{toolerr_truncation_stage}}"}},
			},
			{
				title:       "Redactions by kind",
				description: "Secrets, payment data, personal data, internal hosts, private IPs, stack traces and HTML removed before reaching the agent, per second.",
				unit:        "reqps",
				queries:     []query{{expr: `sum by (toolerr_redaction_kind) (rate(toolerr_redactions_total[$__rate_interval]))`, legend: "{{toolerr_redaction_kind}}"}},
			},
		}},
	}
}
