package promtest

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// PanelQuery is one PromQL target of a dashboard panel.
type PanelQuery struct {
	Panel  string // the panel's title
	RefID  string // the target's refId
	Expr   string // the PromQL, as Grafana sends it before substitution
	Legend string // the legend format, "{{label}} …"
}

// DashboardQueries returns every target of every panel of the Grafana
// dashboard JSON at path, rows' nested panels included, in order. A
// panel without a target, or a target without an expression, is an
// error: every panel answers a question with a query.
func DashboardQueries(path string) ([]PanelQuery, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var d struct {
		Panels []dashPanel `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("promtest: %s: %w", path, err)
	}
	var out []PanelQuery
	var walk func(ps []dashPanel) error
	walk = func(ps []dashPanel) error {
		for _, p := range ps {
			if p.Type == "row" {
				if err := walk(p.Panels); err != nil {
					return err
				}
				continue
			}
			if len(p.Targets) == 0 {
				return fmt.Errorf("promtest: panel %q has no query", p.Title)
			}
			for _, q := range p.Targets {
				if strings.TrimSpace(q.Expr) == "" {
					return fmt.Errorf("promtest: panel %q, query %s has no expression", p.Title, q.RefID)
				}
				out = append(out, PanelQuery{Panel: p.Title, RefID: q.RefID, Expr: q.Expr, Legend: q.Legend})
			}
		}
		return nil
	}
	if err := walk(d.Panels); err != nil {
		return nil, err
	}
	return out, nil
}

// dashPanel is what DashboardQueries reads of a panel.
type dashPanel struct {
	Type    string      `json:"type"`
	Title   string      `json:"title"`
	Panels  []dashPanel `json:"panels"`
	Targets []struct {
		RefID  string `json:"refId"`
		Expr   string `json:"expr"`
		Legend string `json:"legendFormat"`
	} `json:"targets"`
}

// Substitute replaces the Grafana variables the dashboard's queries use
// with what Grafana would send: $__rate_interval becomes rateInterval
// (Grafana computes it from the scrape interval and the panel's step).
func Substitute(expr, rateInterval string) string {
	return strings.ReplaceAll(expr, "$__rate_interval", rateInterval)
}
