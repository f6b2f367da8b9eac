package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// ArgsPath is the route of the argument-validation comparison (issue 26).
const ArgsPath = "/tools/search_flights"

// FlightSearch is the arguments of a typical tool call, search_flights:
// strings with patterns, enums and date formats, bounded integers, an
// array of unique strings and a nested object. Its huma tags are the one
// source of the schema both contenders validate against (see [ArgsSchemas]).
type FlightSearch struct {
	Origin       string   `json:"origin" pattern:"^[A-Z]{3}$"`
	Destination  string   `json:"destination" pattern:"^[A-Z]{3}$"`
	DepartDate   string   `json:"depart_date" format:"date"`
	ReturnDate   string   `json:"return_date,omitempty" format:"date"`
	Cabin        string   `json:"cabin" enum:"economy,premium_economy,business,first"`
	Adults       int      `json:"adults" minimum:"1" maximum:"9"`
	Children     int      `json:"children,omitempty" minimum:"0" maximum:"8"`
	MaxStops     int      `json:"max_stops,omitempty" minimum:"0" maximum:"3"`
	FlexibleDays int      `json:"flexible_days,omitempty" minimum:"0" maximum:"7"`
	Airlines     []string `json:"airlines,omitempty" uniqueItems:"true" maxItems:"10"`
	Currency     string   `json:"currency,omitempty" enum:"USD,EUR,JPY,GBP"`
	PromoCode    string   `json:"promo_code,omitempty" pattern:"^[A-Z0-9]+$" maxLength:"16"`
	Contact      Contact  `json:"contact"`
}

// Contact is the nested object of [FlightSearch].
type Contact struct {
	Email   string `json:"email" format:"email"`
	Phone   string `json:"phone,omitempty" pattern:"^\\+[1-9][0-9]{6,14}$"`
	Country string `json:"country" minLength:"2" maxLength:"2"`
}

// ValidFlightSearch is the body of a typical valid call of search_flights
// (about 400 bytes).
var ValidFlightSearch = []byte(`{"origin":"SFO","destination":"NRT","depart_date":"2026-12-14",` +
	`"return_date":"2026-12-28","cabin":"premium_economy","adults":2,"children":1,"max_stops":1,` +
	`"flexible_days":3,"airlines":["NH","JL","UA"],"currency":"USD","promo_code":"WINTER26",` +
	`"contact":{"email":"ana.souza@example.com","phone":"+14155550123","country":"US"}}`)

// HumaArgs is huma's side of the comparison: the registry that holds the
// schema of [FlightSearch] and the schema itself, a $ref into it, as
// huma.Register validates an operation's body.
type HumaArgs struct {
	Registry huma.Registry
	Schema   *huma.Schema
	pool     sync.Pool // *humaScratch, as huma pools its buffers
}

// humaScratch is what huma takes from its pools per request: the body
// buffer, the path buffer and the validation result.
type humaScratch struct {
	body bytes.Buffer
	pb   *huma.PathBuffer
	res  huma.ValidateResult
}

// ArgsSchemas builds both contenders' schemas from one source, the huma
// schema of [FlightSearch]: huma's registry schema as it is, and for
// argcheck the same schema marshalled to JSON, the registry's schemas as
// $defs and its references rewritten to point at them.
func ArgsSchemas() (*HumaArgs, *argcheck.Schema, error) {
	reg := huma.NewMapRegistry("#/components/schemas/", huma.DefaultSchemaNamer)
	ref := reg.Schema(reflect.TypeFor[FlightSearch](), true, "")
	top := reg.SchemaFromRef(ref.Ref)
	if top == nil || top.Type != huma.TypeObject {
		return nil, nil, fmt.Errorf("bench: huma has no object schema at %q", ref.Ref)
	}
	h := &HumaArgs{Registry: reg, Schema: ref}
	h.pool.New = func() any { return &humaScratch{pb: huma.NewPathBuffer(make([]byte, 0, 128), 0)} }

	doc, err := json.Marshal(top)
	if err != nil {
		return nil, nil, err
	}
	defs, err := json.Marshal(reg.Map())
	if err != nil {
		return nil, nil, err
	}
	// {...top's members..., "$defs": {...}}
	doc = append(append(append(doc[:len(doc)-1], `,"$defs":`...), defs...), '}')
	doc = bytes.ReplaceAll(doc, []byte(`"#/components/schemas/`), []byte(`"#/$defs/`))
	a, err := argcheck.Compile(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("bench: %w\n%s", err, doc)
	}
	return h, a, nil
}

// ErrHumaInvalid is the error of [HumaDecode] for a body huma rejects; the
// violations huma found are joined to it.
var ErrHumaInvalid = errors.New("huma: the body does not match the schema")

// HumaDecode reads r's body and decodes it into a T the way huma.Register
// handles an operation's JSON body: the body read into a pooled buffer
// (at most maxBytes), unmarshalled into any with encoding/json (huma's
// DefaultJSONFormat), validated with huma.Validate in ModeWriteToServer
// at the path "body", then unmarshalled a second time into the Go type.
func HumaDecode[T any](r io.ReadCloser, h *HumaArgs, maxBytes int64) (T, error) {
	var v T
	s := h.pool.Get().(*humaScratch)
	defer func() {
		if s.body.Cap() <= 1<<20 {
			s.body.Reset()
			h.pool.Put(s)
		}
	}()
	n, err := io.Copy(&s.body, io.LimitReader(r, maxBytes))
	_ = r.Close()
	switch {
	case err != nil:
		return v, err
	case n == maxBytes:
		return v, fmt.Errorf("huma: request body is too large limit=%d bytes", maxBytes)
	}
	body := s.body.Bytes()
	var parsed any
	if err := json.Unmarshal(body, &parsed); err != nil {
		return v, fmt.Errorf("%w: %w", ErrHumaInvalid, err)
	}
	s.res.Reset()
	s.pb.Reset()
	s.pb.Push("body")
	huma.Validate(h.Registry, h.Schema, s.pb, huma.ModeWriteToServer, parsed, &s.res)
	if len(s.res.Errors) > 0 {
		return v, fmt.Errorf("%w: %w", ErrHumaInvalid, errors.Join(s.res.Errors...))
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return v, fmt.Errorf("%w: %w", ErrHumaInvalid, err)
	}
	return v, nil
}

// Argument-validation contenders (issue 26), as they appear in benchmark
// names and metric units.
const (
	ArgcheckDecode = "argcheck" // argcheck.Decode
	HumaDecodeName = "huma"     // huma's body handling: read, unmarshal, huma.Validate, unmarshal
	PlainDecode    = "json"     // encoding/json into the struct, no validation: the floor
)

// ArgsContenders lists the contenders of the argument-validation
// comparison, argcheck first: the ratios are argcheck's time over each
// other's.
func ArgsContenders() []string { return []string{ArgcheckDecode, HumaDecodeName, PlainDecode} }

// argsAnswer is what every contender's handler answers to a valid call.
var argsAnswer = []byte(`{"flights":[]}`)

// ArgsHandler returns contender c's whole tool: a router serving POST
// [ArgsPath] whose handler decodes the arguments and answers argsAnswer,
// or an error for arguments the schema rejects.
//
//   - argcheck: a chi router and a plain handler calling
//     argcheck.Decode[FlightSearch], its error written by toolerr.Write
//     (400 VALIDATION_FAILED);
//   - huma: a huma v2 API on humachi (huma.DefaultConfig), one operation
//     whose input is struct{ Body FlightSearch }: huma reads, validates and
//     decodes the body itself (422 on a violation);
//   - json: a chi router and a handler decoding with json.Unmarshal, no
//     schema (400 only for JSON that does not fit the struct).
func ArgsHandler(c string, a *argcheck.Schema) http.Handler {
	r := chi.NewRouter()
	switch c {
	case ArgcheckDecode:
		r.Post(ArgsPath, func(w http.ResponseWriter, r *http.Request) {
			args, err := argcheck.Decode[FlightSearch](r, a)
			if err != nil {
				toolerr.Write(w, r, err)
				return
			}
			answerFlights(w, args)
		})
	case HumaDecodeName:
		api := humachi.New(r, huma.DefaultConfig("bench", "1.0.0"))
		op := huma.Operation{OperationID: "search-flights", Method: http.MethodPost, Path: ArgsPath}
		huma.Register(api, op, func(_ context.Context, in *struct{ Body FlightSearch }) (*humaOK, error) {
			if in.Body.Adults == 0 {
				return nil, huma.Error500InternalServerError("huma decoded nothing")
			}
			return &humaOK{ContentType: "application/json", Body: argsAnswer}, nil
		})
	default:
		r.Post(ArgsPath, func(w http.ResponseWriter, r *http.Request) {
			raw, err := io.ReadAll(io.LimitReader(r.Body, argcheck.DefaultMaxBytes))
			var args FlightSearch
			if err == nil {
				err = json.Unmarshal(raw, &args)
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			answerFlights(w, args)
		})
	}
	return r
}

// answerFlights answers a decoded call with argsAnswer, or a 500 when
// nothing was decoded.
func answerFlights(w http.ResponseWriter, args FlightSearch) {
	if args.Adults == 0 {
		http.Error(w, "decoded nothing", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(argsAnswer)
}

// NewArgsRequest returns a call of search_flights carrying body.
func NewArgsRequest(body []byte) *http.Request {
	req := httptest.NewRequest(http.MethodPost, ArgsPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// CheckArgs serves the valid call with contender c's tool and checks its
// answer: 200 and argsAnswer.
func CheckArgs(c string, a *argcheck.Schema) error {
	rec := httptest.NewRecorder()
	ArgsHandler(c, a).ServeHTTP(rec, NewArgsRequest(ValidFlightSearch))
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), argsAnswer) {
		return fmt.Errorf("%s: want 200 and %s, got %d: %s", c, argsAnswer, rec.Code, rec.Body)
	}
	return nil
}
