package toolerr

import (
	"mime"
	"strconv"
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Media types of the observation renderings (see [Error.AppendObservation]).
const (
	ContentTypeMarkdown = "text/markdown; charset=utf-8"
	ContentTypePlain    = "text/plain; charset=utf-8"
)

// textRendering is the text an Accept header asks for in preference to
// JSON: none, plain or markdown.
type textRendering int

const (
	textNone textRendering = iota
	textPlain
	textMarkdown
)

// acceptsText reads an Accept header and returns the text rendering it
// prefers to JSON: text/markdown or text/plain named with a quality at
// least that of every JSON type and wildcard it names. Among the two text
// types the higher quality wins, then the one listed first. A header that
// names no text type costs one scan and no allocation.
func acceptsText(accept string) textRendering {
	if !asciifold.Contains(accept, "text/") {
		return textNone
	}
	var (
		best     textRendering
		bestQ    float64
		jsonQ    float64
		anyTextQ float64 // text/*: plain, when nothing more specific is named
	)
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v < 0 || v > 1 {
				continue
			}
			q = v
		}
		switch mt {
		case "text/markdown", "text/plain":
			r := textPlain
			if mt == "text/markdown" {
				r = textMarkdown
			}
			if q > bestQ {
				best, bestQ = r, q
			}
		case "text/*":
			anyTextQ = max(anyTextQ, q)
		case ContentTypeProblem, "application/json", "application/*", "*/*":
			jsonQ = max(jsonQ, q)
		}
	}
	if best == textNone && anyTextQ > 0 {
		best, bestQ = textPlain, anyTextQ
	}
	if best == textNone || bestQ <= 0 || bestQ < jsonQ {
		return textNone
	}
	return best
}
