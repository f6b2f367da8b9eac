package bench

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolerr/toolerr/argcheck"
)

// argsRows are the comparisons of argument validation: the decode alone,
// the whole tool served through its router, and the validation alone of
// the decoded call (argcheck and huma only: its floor is doing nothing).
var argsRows = []string{"decode", "operation", "validate"}

// argsContenders returns the contenders of row, in ArgsContenders' order.
func argsContenders(row string) []string {
	if row == "validate" {
		return ArgsContenders()[:2]
	}
	return ArgsContenders()
}

// replayBody is a request body that replays the same bytes after Reset,
// so that a decode benchmark reuses one request.
type replayBody struct{ bytes.Reader }

// Close does nothing.
func (*replayBody) Close() error { return nil }

// argsCalls returns one call of each contender of row, by index in
// argsContenders(row); each call serves, decodes or validates
// ValidFlightSearch and fails b when the call is rejected.
func argsCalls(b *testing.B, row string) []func() {
	h, a, err := ArgsSchemas()
	if err != nil {
		b.Fatal(err)
	}
	names := ArgsContenders()
	calls := make([]func(), len(names))
	switch row {
	case "validate":
		return validateCalls(b, h, a)
	case "operation":
		for i, c := range names {
			if err := CheckArgs(c, a); err != nil {
				b.Fatal(err)
			}
			hd := ArgsHandler(c, a)
			calls[i] = func() {
				rec := httptest.NewRecorder()
				hd.ServeHTTP(rec, NewArgsRequest(ValidFlightSearch))
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: status %d: %s", c, rec.Code, rec.Body)
				}
			}
		}
		return calls
	}
	req, body := NewArgsRequest(nil), &replayBody{}
	next := func() *http.Request {
		body.Reset(ValidFlightSearch)
		req.Body, req.GetBody = body, nil
		return req
	}
	check := func(c string, args FlightSearch, err error) {
		if err != nil || args.Contact.Country != "US" {
			b.Fatalf("%s: %v, decoded %+v", c, err, args)
		}
	}
	calls[0] = func() {
		args, err := argcheck.Decode[FlightSearch](next(), a)
		check(names[0], args, err)
	}
	calls[1] = func() {
		args, err := HumaDecode[FlightSearch](next().Body, h, argcheck.DefaultMaxBytes)
		check(names[1], args, err)
	}
	calls[2] = func() {
		var args FlightSearch
		raw, err := io.ReadAll(io.LimitReader(next().Body, argcheck.DefaultMaxBytes))
		if err == nil {
			err = json.Unmarshal(raw, &args)
		}
		check(names[2], args, err)
	}
	return calls
}

// BenchmarkArgsInterleaved compares argcheck.Decode with huma's validating
// decode of the same typical call against the same schema (issue 26), in
// one timed loop, batch after batch (see interleaved): row=decode the
// decode alone, row=operation the whole tool through its router,
// row=validate the validation alone of the decoded call. The ratios are
// argcheck's time over huma's and over plain encoding/json's.
func BenchmarkArgsInterleaved(b *testing.B) {
	for _, row := range argsRows {
		b.Run("row="+row, func(b *testing.B) {
			calls := argsCalls(b, row)
			interleaved(b, argsContenders(row), httpBatch, false, func(i int) { calls[i]() }, nil)
		})
	}
}

// BenchmarkArgs runs each contender of each row of BenchmarkArgsInterleaved
// on its own, for benchstat's ns/op, B/op and allocs/op (run with
// -benchmem).
func BenchmarkArgs(b *testing.B) {
	for _, row := range argsRows {
		for i, c := range argsContenders(row) {
			b.Run("row="+row+"/contender="+c, func(b *testing.B) {
				call := argsCalls(b, row)[i]
				for b.Loop() {
					call()
				}
			})
		}
	}
}

// validateCalls returns the validation alone of the valid call, the value
// decoded once beforehand as each contender decodes it: argcheck's
// Schema.Check on the tree validator.UnmarshalJSON makes (numbers as
// json.Number, as Schema.CheckJSON decodes), and huma.Validate on the
// tree json.Unmarshal makes, as huma.Register does.
func validateCalls(b *testing.B, h *HumaArgs, a *argcheck.Schema) []func() {
	numbers, err := validator.UnmarshalJSON(bytes.NewReader(ValidFlightSearch))
	if err != nil {
		b.Fatal(err)
	}
	var floats any
	if err := json.Unmarshal(ValidFlightSearch, &floats); err != nil {
		b.Fatal(err)
	}
	pb, res := huma.NewPathBuffer(make([]byte, 0, 128), 0), &huma.ValidateResult{}
	return []func(){
		func() {
			if err := a.Check(numbers); err != nil {
				b.Fatal(err)
			}
		},
		func() {
			res.Reset()
			pb.Reset()
			pb.Push("body")
			huma.Validate(h.Registry, h.Schema, pb, huma.ModeWriteToServer, floats, res)
			if len(res.Errors) > 0 {
				b.Fatal(res.Errors)
			}
		},
	}
}
