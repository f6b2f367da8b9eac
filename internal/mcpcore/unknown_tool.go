package mcpcore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolerr/toolerr"
)

// Bounds of the answer to an unknown tool: the tool names it offers, the
// length of a called name it repeats or ranks, and the known names it
// measures, so that a hostile call (a megabyte of name, a server with
// thousands of tools) costs little.
const (
	maxNearTools  = 5
	maxShownName  = 128
	maxRankedName = 256
	maxRankedList = 1024
)

// Similarity thresholds of [nearestTools], as a Dice coefficient of
// character pairs (0: nothing shared, 1: the same name once case and
// separators are ignored).
const (
	nearScore      = 0.5  // a tool this close is named
	suggestedScore = 0.7  // the one plausibly meant is at least this close
	suggestedLead  = 0.15 // and this much closer than any other
)

// UnknownTool returns the failure of a call of name, a tool the server
// does not have, whose tools are known: TOOL_NOT_FOUND on the field
// "name", with the known tools nearest to name as allowed_values and, when
// exactly one is plausibly meant, that one as suggested_value. The call is
// never redirected to it: the agent decides. A name near no tool gets no
// values: the list is never padded with unrelated tools.
func (c *Core) UnknownTool(ctx context.Context, name string, known []string) *Failure {
	e := c.Registry.New(toolerr.CodeToolNotFound, "").WithField("name").
		WithHint("Call one of the tools the server lists, by its exact name; list the tools again if none fits.")
	if utf8.RuneCountInString(name) <= maxShownName {
		e = e.WithDetail(fmt.Sprintf("No tool is named %q.", name)) // sanitized by Rejected
	}
	near, suggested := nearestTools(name, known)
	if len(near) > 0 {
		e = e.WithAllowedValues(near)
	}
	if suggested != "" {
		e = e.WithSuggestedValue(suggested)
	}
	// The error names no tool: the one called does not exist, and its
	// name, the client's, is only the value that failed.
	return c.Rejected(ctx, Call{}, e)
}

// nearestTools ranks known by their likeness to name (case and the
// separators "-", "_", "." and " " ignored; then the share of character
// pairs in common) and returns the nearest, best first, at most
// maxNearTools, and the one plausibly meant: the only one equal to name
// once case and separators are ignored, else the best when it is close
// and clearly closer than the next.
func nearestTools(name string, known []string) (near []string, suggested string) {
	if name == "" || len(name) > maxRankedName {
		return nil, ""
	}
	type ranked struct {
		name  string
		score float64
	}
	want := foldName(name)
	pairs := charPairs(want)
	var rs []ranked
	for _, k := range known[:min(len(known), maxRankedList)] {
		if k == name || k == "" || len(k) > maxRankedName {
			continue
		}
		fk := foldName(k)
		score := 1.0
		if fk != want {
			score = dice(pairs, charPairs(fk))
		}
		if score >= nearScore {
			rs = append(rs, ranked{k, score})
		}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		if d := cmp.Compare(b.score, a.score); d != 0 {
			return d
		}
		return strings.Compare(a.name, b.name)
	})
	for _, r := range rs[:min(len(rs), maxNearTools)] {
		near = append(near, r.name)
	}
	switch {
	case len(rs) == 0:
	case rs[0].score == 1 && (len(rs) == 1 || rs[1].score < 1):
		suggested = rs[0].name
	case rs[0].score >= suggestedScore && (len(rs) == 1 || rs[0].score-rs[1].score >= suggestedLead):
		suggested = rs[0].name
	}
	return near, suggested
}

// foldName is s lower-cased without the separators of tool names.
func foldName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '.', ' ':
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// charPairs counts the pairs of adjacent runes of s; a one-rune s counts
// as its own pair.
func charPairs(s string) map[[2]rune]int {
	rs := []rune(s)
	out := make(map[[2]rune]int, len(rs))
	if len(rs) == 1 {
		out[[2]rune{rs[0], 0}]++
	}
	for i := 1; i < len(rs); i++ {
		out[[2]rune{rs[i-1], rs[i]}]++
	}
	return out
}

// dice is the Dice coefficient of two multisets of pairs: twice the pairs
// in common over all pairs.
func dice(a, b map[[2]rune]int) float64 {
	total, common := 0, 0
	for p, n := range a {
		total += n
		common += min(n, b[p])
	}
	for _, n := range b {
		total += n
	}
	if total == 0 {
		return 0
	}
	return 2 * float64(common) / float64(total)
}
