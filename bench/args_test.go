package bench

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// invalidFlightSearches are calls of search_flights that break one
// constraint each of the schema, every kind of keyword the schema uses.
var invalidFlightSearches = map[string]string{
	"pattern":              `"origin":"SFO"->"origin":"sfo"`,
	"pattern_nested":       `"phone":"+14155550123"->"phone":"0800 123"`,
	"enum":                 `"cabin":"premium_economy"->"cabin":"premium"`,
	"format_date":          `"depart_date":"2026-12-14"->"depart_date":"2026-13-40"`,
	"format_email":         `"email":"ana.souza@example.com"->"email":"ana.souza"`,
	"maximum":              `"adults":2->"adults":12`,
	"minimum":              `"adults":2->"adults":0`,
	"integer_not_fraction": `"adults":2->"adults":2.5`,
	"type":                 `"adults":2->"adults":"2"`,
	"uniqueItems":          `["NH","JL","UA"]->["NH","JL","NH"]`,
	"maxLength_nested":     `"country":"US"->"country":"USA"`,
	"maxLength":            `"promo_code":"WINTER26"->"promo_code":"WINTER2026WINTER2026"`,
	"required":             `"cabin":"premium_economy",->`,
	"required_nested":      `"email":"ana.souza@example.com",->`,
	"additionalProperties": `"adults":2->"adults":2,"seat":"12A"`,
	"type_array":           `["NH","JL","UA"]->"NH"`,
	"type_object":          `{"email":"ana.souza@example.com","phone":"+14155550123","country":"US"}->"ana.souza@example.com"`,
	"malformed_json":       `{"origin"->["origin"`,
}

// invalidBody applies edit, "old->new", to the valid call.
func invalidBody(t testing.TB, edit string) []byte {
	t.Helper()
	old, repl, _ := strings.Cut(edit, "->")
	if !bytes.Contains(ValidFlightSearch, []byte(old)) {
		t.Fatalf("the valid call has no %s", old)
	}
	return bytes.Replace(ValidFlightSearch, []byte(old), []byte(repl), 1)
}

// TestArgsContendersAgree checks that argcheck and huma validate the same
// schema: both accept the valid call and decode it into the same value,
// and both reject every invalid one, through the decode alone and through
// the whole tool, so that the benchmarks cannot compare different work.
func TestArgsContendersAgree(t *testing.T) {
	h, a, err := ArgsSchemas()
	if err != nil {
		t.Fatal(err)
	}
	want, err := argcheck.Decode[FlightSearch](NewArgsRequest(ValidFlightSearch), a)
	if err != nil {
		t.Fatalf("argcheck rejects the valid call: %v", err)
	}
	got, err := HumaDecode[FlightSearch](NewArgsRequest(ValidFlightSearch).Body, h, argcheck.DefaultMaxBytes)
	if err != nil {
		t.Fatalf("huma rejects the valid call: %v", err)
	}
	if !reflect.DeepEqual(got, want) || want.Contact.Email == "" || len(want.Airlines) != 3 {
		t.Fatalf("the decoded calls differ or are empty:\nargcheck %+v\nhuma     %+v", want, got)
	}
	for _, c := range ArgsContenders() {
		if err := CheckArgs(c, a); err != nil {
			t.Error(err)
		}
	}
	handlers := map[string]http.Handler{
		ArgcheckDecode: ArgsHandler(ArgcheckDecode, a),
		HumaDecodeName: ArgsHandler(HumaDecodeName, a),
	}
	for name, edit := range invalidFlightSearches {
		t.Run(name, func(t *testing.T) {
			body := invalidBody(t, edit)
			_, err := argcheck.Decode[FlightSearch](NewArgsRequest(body), a)
			var te *toolerr.Error
			if !errors.As(err, &te) || te.Code != toolerr.CodeValidationFailed {
				t.Errorf("argcheck.Decode: want VALIDATION_FAILED, got %v", err)
			}
			if _, err := HumaDecode[FlightSearch](NewArgsRequest(body).Body, h, argcheck.DefaultMaxBytes); !errors.Is(err, ErrHumaInvalid) {
				t.Errorf("huma: want a rejection, got %v", err)
			}
			for c, want := range map[string]int{ArgcheckDecode: http.StatusBadRequest, HumaDecodeName: http.StatusUnprocessableEntity} {
				rec := httptest.NewRecorder()
				handlers[c].ServeHTTP(rec, NewArgsRequest(body))
				if name == "malformed_json" {
					want = http.StatusBadRequest // huma: 400 for a body that is not JSON
				}
				if rec.Code != want {
					t.Errorf("%s tool: want %d, got %d: %s", c, want, rec.Code, rec.Body)
				}
			}
		})
	}
}
