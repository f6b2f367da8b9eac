package translate

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/classify"
)

// The real SDKs' errors are read in the test modules of mappers/ (a real
// client of each major version against documented responses). These tests
// hold the reader to shapes no SDK should send: a field of another kind, a
// nil embedded pointer, a missing response, and none may panic.

// stripeLike has stripe-go's field names; its package is not stripe-go's,
// so it is read by calling the Stripe reader directly.
type stripeLike struct {
	*apiResourceLike
	Code           string
	DeclineCode    string
	HTTPStatusCode int
	Msg            string
	Param          string
	RequestID      string
	Type           string
	DocURL         *string
}

type apiResourceLike struct{ LastResponse *apiResponseLike }

type apiResponseLike struct {
	Header     http.Header
	RawJSON    []byte
	RequestID  string
	StatusCode int
}

func (e *stripeLike) Error() string { return "stripe-like" }

// mistyped has the field names of every reader with other kinds.
type mistyped struct {
	StatusCode   string
	Response     string
	Request      int
	LastResponse int
	Type         int
	Code         []int
	Body         int
	Header       string
	Errors       int
	Message      int
	Rate         int
	RetryAfter   string
}

func (mistyped) Error() string { return "mistyped" }

func TestStripeReaderShapes(t *testing.T) {
	s := Default()
	read := func(e *stripeLike) (classify.Outcome, bool) {
		f, ok := fieldsOf(e)
		require.True(t, ok)
		return s.readStripe(e, f)
	}
	doc := "https://stripe.com/docs/error-codes/resource-missing"
	// A nil embedded pointer: LastResponse cannot be reached, the fields are read.
	o, ok := read(&stripeLike{Type: "invalid_request_error", Code: "resource_missing", HTTPStatusCode: 404, Param: "customer", DocURL: &doc})
	require.True(t, ok)
	assert.Equal(t, "resource_missing", o.VendorCode)
	assert.Equal(t, 404, o.Status)
	assert.Equal(t, "customer", o.Field)
	assert.Equal(t, doc, o.Details["doc_url"], "a *string field is read")

	// A kept response is read by the Stripe translator, and wins.
	body := `{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","message":"m"}}`
	o, ok = read(&stripeLike{Type: "card_error", apiResourceLike: &apiResourceLike{LastResponse: &apiResponseLike{
		StatusCode: 402, RawJSON: []byte(body), RequestID: "req_1", Header: http.Header{}}}})
	require.True(t, ok)
	assert.Equal(t, "card_declined", o.VendorCode)
	assert.Equal(t, "insufficient_funds", o.ClassCode)
	assert.Equal(t, "req_1", o.RequestID, "the response's request id")

	// api_error without Stripe's word may have run.
	o, ok = read(&stripeLike{Type: "api_error", apiResourceLike: &apiResourceLike{LastResponse: &apiResponseLike{
		StatusCode: 500, RawJSON: []byte(`{"error":{"type":"api_error","message":"m"}}`)}}})
	require.True(t, ok)
	assert.True(t, o.UnknownOutcome)

	// A bare invalid_request_error is a catch-all: the status decides.
	o, ok = read(&stripeLike{Type: "invalid_request_error", HTTPStatusCode: 401})
	require.True(t, ok)
	assert.True(t, o.GenericCode)
}

func TestReadersRefuseOtherShapes(t *testing.T) {
	s := Default()
	f, ok := fieldsOf(mistyped{})
	require.True(t, ok)
	assert.NotPanics(t, func() {
		o, ok := s.readStripe(mistyped{}, f)
		if ok {
			assert.Zero(t, o.Status, "a mistyped status is not read")
		}
		_, ok = s.readStainless(openAISDK, mistyped{}, f)
		assert.True(t, ok, "StatusCode names the shape; its kind is wrong, so it reads as 0")
		_, _ = s.readGitHub(mistyped{}, f)
		_, _ = s.readGoogle(mistyped{}, f)
	})
	o, ok := s.readStainless(openAISDK, mistyped{}, f)
	require.True(t, ok)
	assert.Zero(t, o.Status)
	assert.Empty(t, o.VendorCode)

	// Not a struct, a nil pointer: nothing to read.
	_, ok = fieldsOf((*stripeLike)(nil))
	assert.False(t, ok)
	_, ok = fieldsOf(errors.New("x"))
	assert.True(t, ok, "*errors.errorString is a struct with no readable fields")
}

func TestReadSDKErrorIgnoresOtherErrors(t *testing.T) {
	s := Default()
	for _, err := range []error{nil, errors.New("plain"), fmt.Errorf("wrapped: %w", errors.New("x")),
		errors.Join(errors.New("a"), &stripeLike{Type: "card_error"}), &mistyped{}} {
		_, ok := s.ReadSDKError(err)
		assert.False(t, ok, "%v: no SDK's package", err)
	}
}

// githubLike has go-github's field names.
type githubLike struct {
	Response         *http.Response
	Message          string
	Errors           []struct{ Field, Code string }
	DocumentationURL string
	RetryAfter       *time.Duration
}

func (*githubLike) Error() string { return "github-like" }

func TestGitHubReaderWithoutResponse(t *testing.T) {
	e := &githubLike{Message: "built by hand"}
	f, _ := fieldsOf(e)
	o, ok := Default().readGitHub(e, f)
	require.True(t, ok)
	assert.Equal(t, "github", o.Vendor)
	assert.Equal(t, "built by hand", o.Message)
	assert.Zero(t, o.Status)

	e.Response = &http.Response{StatusCode: 422, Header: http.Header{}}
	e.Message = "Validation Failed"
	e.Errors = []struct{ Field, Code string }{{"title", "missing_field"}}
	f, _ = fieldsOf(e)
	o, ok = Default().readGitHub(e, f)
	require.True(t, ok)
	assert.Equal(t, 422, o.Status)
	assert.True(t, strings.Contains(o.Message, "Validation Failed"), o.Message)
}

func FuzzReadStainlessBody(f *testing.F) {
	s, err := NewSet(nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		`{"message":"m","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}`,
		`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}`,
		`<html>502</html>`, `{"error":`, `null`, ``,
	} {
		f.Add(400, seed, true)
		f.Add(529, seed, false)
	}
	f.Fuzz(func(t *testing.T, status int, body string, inner bool) {
		e := &stainlessLike{StatusCode: status, raw: body}
		fs, _ := fieldsOf(e)
		sdk := anthropicSDK
		if inner {
			sdk = openAISDK
		}
		o, ok := s.readStainless(sdk, e, fs)
		if !ok {
			t.Fatal("a Stainless-shaped error is always read")
		}
		if o.Vendor != sdk.vendor {
			t.Fatalf("vendor %q", o.Vendor)
		}
	})
}

// stainlessLike has a Stainless SDK's *Error shape.
type stainlessLike struct {
	StatusCode int
	Request    *http.Request
	Response   *http.Response
	raw        string
}

func (e *stainlessLike) Error() string   { return "stainless-like" }
func (e *stainlessLike) RawJSON() string { return e.raw }

// BenchmarkReadSDKErrorMiss is what the SDK reader adds to the
// classification of every Go error that is no SDK's: a walk of a chain of
// three, reading each error's package path.
func BenchmarkReadSDKErrorMiss(b *testing.B) {
	s := Default()
	err := fmt.Errorf("charge: %w", fmt.Errorf("call: %w", errors.New("connection refused")))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := s.ReadSDKError(err); ok {
			b.Fatal("read")
		}
	}
}
