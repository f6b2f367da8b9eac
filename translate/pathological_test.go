package translate

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPathologicalBodies feeds every built-in translator 64 KiB bodies
// built to be expensive: deep nesting, long runs, unclosed structures. Each
// must come back with an error and without a panic; a translator with
// quadratic work would make this test time out.
func TestPathologicalBodies(t *testing.T) {
	const n = 64 << 10
	bodies := map[string]string{
		"deep JSON arrays":   strings.Repeat("[", n/2) + strings.Repeat("]", n/2),
		"deep JSON objects":  strings.Repeat(`{"error":`, n/9),
		"long JSON string":   `{"error":{"message":"` + strings.Repeat(`\"`, n/2) + `"}}`,
		"many errors":        `{"errors":[` + strings.Repeat(`{"message":"m","field":"f"},`, n/28) + `{}]}`,
		"deep XML":           strings.Repeat("<Error>", n/7),
		"many XML elements":  "<Response><Errors>" + strings.Repeat("<Error><Code>X</Code></Error>", n/29) + "</Errors></Response>",
		"long HTML":          "<html><head><title>" + strings.Repeat("5", n) + "</title>",
		"unclosed tags":      strings.Repeat("<div><b><i>", n/11),
		"long plain line":    strings.Repeat("error code: 1", n/13),
		"NUL and high bytes": strings.Repeat("\x00\xff\xfe{", n/4),
	}
	s, err := NewSet(nil)
	require.NoError(t, err)
	hosts := []string{""}
	for _, h := range s.hosts {
		hosts = append(hosts, "api."+h.suffix)
	}
	for name, body := range bodies {
		for _, ct := range []string{"application/json", "application/xml", "text/html", "text/plain"} {
			for _, host := range hosts {
				r := &Raw{Method: "POST", Host: host, Status: 503, Header: http.Header{"Content-Type": {ct}}, Body: []byte(body)}
				require.NotNil(t, s.Classify(context.Background(), r), "%s %s %s", name, ct, host)
			}
		}
	}
}
