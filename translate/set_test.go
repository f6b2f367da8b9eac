package translate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// tagged is a translator that claims what match says and tags its outcome
// with its name as the vendor code.
func tagged(name string, hosts []string, match func(*Raw) bool) *Vendor {
	return &Vendor{
		Name:      name,
		HostNames: hosts,
		Recognize: match,
		Parse: func(r *Raw) (classify.Outcome, bool) {
			if r.Status < 400 && !strings.Contains(string(r.Body), `"ok":false`) {
				return classify.Outcome{}, false
			}
			return classify.Outcome{VendorCode: name + "_code"}, true
		},
		CodeTable: map[string]string{name + "_code": toolerr.CodeConflict},
	}
}

func newTestSet(t *testing.T, opts ...Option) *Set {
	t.Helper()
	s, err := NewSet(nil, append([]Option{WithoutBuiltins()}, opts...)...)
	require.NoError(t, err)
	return s
}

func TestSetPicksByHostSuffix(t *testing.T) {
	s := newTestSet(t, WithTranslators(
		tagged("wide", []string{".example.com"}, nil),
		tagged("narrow", []string{"api.pay.example.com"}, nil),
	))
	tests := []struct{ host, want string }{
		{"api.pay.example.com", "narrow"},
		{"eu.api.pay.example.com", "narrow"},
		{"files.example.com", "wide"},
		{"example.com", "wide"},
		{"notexample.com", ""},
		{"api.pay.example.com.evil.net", ""},
	}
	for _, tc := range tests {
		o, ok := s.Translate(&Raw{Host: tc.host, Status: 409})
		require.True(t, ok)
		assert.Equal(t, tc.want, o.Vendor, tc.host)
	}
}

func TestSetOrder(t *testing.T) {
	isPage := func(r *Raw) bool { return strings.HasPrefix(string(r.Body), "<html") }
	s := newTestSet(t, WithTranslators(
		tagged("acme", []string{"api.acme.test"}, func(r *Raw) bool { return r.Header.Get("Acme-Id") != "" }),
		tagged("named", nil, nil),
	))
	gw := tagged("proxy", nil, isPage)
	s.gateways = []Translator{gw}

	o, _ := s.Translate(&Raw{Host: "api.acme.test", Status: 502, Body: []byte("<html>bad gateway")})
	assert.Equal(t, "proxy", o.Vendor, "a gateway page wins over the host's vendor")

	o, _ = s.Translate(&Raw{Host: "api.acme.test", Vendor: "named", Status: 400})
	assert.Equal(t, "named", o.Vendor, "the caller's choice wins over the host")

	o, _ = s.Translate(&Raw{Status: 400, Header: http.Header{"Acme-Id": {"1"}}})
	assert.Equal(t, "acme", o.Vendor, "recognised by a header when the host is unknown")

	o, ok := s.Translate(&Raw{Status: 400, Vendor: "unknown-vendor"})
	require.True(t, ok, "a failure is always read")
	assert.Equal(t, "unknown-vendor", o.Vendor, "nothing claims it: the caller's name stays")
	assert.Empty(t, o.VendorCode)
}

func TestSetFillsTheOutcome(t *testing.T) {
	s := newTestSet(t, WithTranslators(tagged("acme", []string{"api.acme.test"}, nil)))
	h := http.Header{"Retry-After": {"3"}}
	o, ok := s.Translate(&Raw{Method: "POST", Host: "api.acme.test", Status: 429, Header: h, Idempotent: true})
	require.True(t, ok)
	assert.Equal(t, "POST", o.Method)
	assert.Equal(t, 429, o.Status)
	assert.Equal(t, h, o.Header)
	assert.Equal(t, "acme", o.Vendor)
	assert.True(t, o.Idempotent)
}

func TestSetSuccessIsNotAnError(t *testing.T) {
	s := newTestSet(t, WithTranslators(tagged("chat", []string{"chat.test"}, nil)))
	_, ok := s.Translate(&Raw{Host: "chat.test", Status: 200, Body: []byte(`{"ok":true}`)})
	assert.False(t, ok)
	assert.Nil(t, s.Classify(context.Background(), &Raw{Host: "other.test", Status: 204}))
	e := s.Classify(context.Background(), &Raw{Host: "chat.test", Status: 200, Body: []byte(`{"ok":false}`)})
	require.NotNil(t, e, "an error on a 2xx is an error")
	assert.Equal(t, toolerr.CodeConflict, e.Code)
}

func TestSetRegistersCodeTables(t *testing.T) {
	c := classify.New(nil)
	_, err := NewSet(c, WithoutBuiltins(), WithTranslators(tagged("acme", nil, nil)))
	require.NoError(t, err)
	e := c.Classify(context.Background(), classify.Outcome{Vendor: "acme", VendorCode: "acme_code", Status: 500})
	assert.Equal(t, toolerr.CodeConflict, e.Code)

	bad := &Vendor{Name: "bad", CodeTable: map[string]string{"x": "NO_SUCH_CODE"}}
	_, err = NewSet(nil, WithoutBuiltins(), WithTranslators(bad))
	assert.ErrorContains(t, err, "NO_SUCH_CODE")
	_, err = NewSet(nil, WithoutBuiltins(), WithTranslators(nil))
	assert.Error(t, err)
}

func TestOwnTranslatorWinsOverBuiltin(t *testing.T) {
	mine := tagged("stripe", []string{"api.stripe.com"}, nil)
	s, err := NewSet(nil, WithTranslators(mine))
	require.NoError(t, err)
	o, ok := s.Translate(&Raw{Host: "api.stripe.com", Status: 409})
	require.True(t, ok)
	assert.Equal(t, "stripe_code", o.VendorCode, "the service's translator is tried first")
}

func TestUnknownVendorCodeOn500IsUnclassified(t *testing.T) {
	var mu sync.Mutex
	var seen []classify.Unmapped
	obs := classify.ObserverFunc(func(_ context.Context, u classify.Unmapped) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, u)
	})
	acme := &Vendor{Name: "acme", HostNames: []string{"api.acme.test"},
		Parse: func(r *Raw) (classify.Outcome, bool) {
			return classify.Outcome{VendorCode: "flux_capacitor_overheated"}, true
		}}
	s, err := NewSet(classify.New(nil, classify.WithObserver(obs)), WithTranslators(acme))
	require.NoError(t, err)
	e := s.Classify(context.Background(), &Raw{Method: "GET", Host: "api.acme.test", Status: 500})
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeUpstreamUnclassified, e.Code)
	assert.False(t, e.Retryable)
	require.Len(t, seen, 1)
	assert.Equal(t, "acme", seen[0].Vendor)
	assert.Equal(t, "flux_capacitor_overheated", seen[0].VendorCode)
	assert.Equal(t, 500, seen[0].Status)
}

func TestClassifyKeepsTheVendorsAccountAsCause(t *testing.T) {
	acme := &Vendor{Name: "acme", HostNames: []string{"api.acme.test"},
		Parse: func(r *Raw) (classify.Outcome, bool) {
			return classify.Outcome{VendorCode: "E42", Message: "widget " + strings.Repeat("é ", 600) + "is gone"}, true
		}}
	s, err := NewSet(classify.New(nil, classify.WithMessageFilter(nil)), WithoutBuiltins(), WithTranslators(acme))
	require.NoError(t, err)
	e := s.Classify(context.Background(), &Raw{Host: "api.acme.test", Status: 404})
	require.NotNil(t, e)
	assert.Equal(t, e.Title, e.Detail, "message filter turned off: the vendor's text is not in the error")
	var ve *VendorError
	require.ErrorAs(t, e, &ve)
	assert.Equal(t, "acme", ve.Vendor)
	assert.Equal(t, 404, ve.Status)
	assert.Equal(t, "E42", ve.Code)
	assert.LessOrEqual(t, len(ve.Message), maxVendorMessage)
	assert.True(t, strings.HasSuffix(ve.Message, " é"), "cut at a word: %q", ve.Message)
	assert.True(t, strings.HasPrefix(ve.Error(), "acme 404 E42: widget é"))
	assert.Equal(t, "upstream 500", (&VendorError{Status: 500}).Error())

	// The word the cap runs through goes whole, however long: the start
	// of a token is no secret to the rules that read the message later.
	ve = newVendorError("acme", 401, "E42", "bad key "+strings.Repeat("sk_live_", 200))
	assert.Equal(t, "bad key", ve.Message)
}

func TestDefaultSetKeepsVendorTextSanitized(t *testing.T) {
	const secret = "sk_live_51HqLyjWDarjtT1zdp7dcXu2Q"
	acme := &Vendor{Name: "acme", HostNames: []string{"api.acme.test"},
		Parse: func(r *Raw) (classify.Outcome, bool) {
			return classify.Outcome{VendorCode: "E42", Message: "widget 42 is gone (key " + secret + ")",
				Details: map[string]any{"reason": "archived by " + secret}}, true
		}}
	e := newTestSet(t, WithTranslators(acme)).Classify(context.Background(), &Raw{Host: "api.acme.test", Status: 404})
	require.NotNil(t, e)
	assert.Contains(t, e.Detail, "widget 42 is gone", "the default classifier keeps the vendor's message")
	assert.Contains(t, e.Details["reason"], "archived by", "and its string details")
	assert.NotContains(t, e.Detail+fmt.Sprint(e.Details), secret, "sanitized")
}

// TestVendorCodes: the table of a built-in vendor, a copy the caller may
// change, and nil for a name no built-in translator has.
func TestVendorCodes(t *testing.T) {
	google := VendorCodes("google")
	require.NotEmpty(t, google)
	assert.Equal(t, toolerr.CodeUpstreamMisconfigured, google["SERVICE_DISABLED"])
	assert.Equal(t, toolerr.CodeQuotaExhausted, google["RATE_LIMIT_EXCEEDED"+googlePerDay])
	google["SERVICE_DISABLED"] = toolerr.CodeInternal
	assert.Equal(t, toolerr.CodeUpstreamMisconfigured, VendorCodes("google")["SERVICE_DISABLED"], "a copy")
	assert.Nil(t, VendorCodes("no-such-vendor"))
}

// setMapped is a typed error only TestSetWithErrorMappers's mapper knows.
type setMapped struct{}

func (setMapped) Error() string { return "billing locked" }

// TestSetWithErrorMappers: the mappers reach the classifier NewSet builds;
// given with a classifier of the caller's, NewSet refuses them rather
// than drop them.
func TestSetWithErrorMappers(t *testing.T) {
	m := classify.MapperFunc(func(err error) (classify.Outcome, bool) {
		if _, ok := errors.AsType[setMapped](err); !ok {
			return classify.Outcome{}, false
		}
		return classify.Outcome{Vendor: "billing", Status: http.StatusConflict}, true
	})
	s, err := NewSet(nil, WithErrorMappers(m))
	require.NoError(t, err)
	e, ok := s.Classifier().GoError(context.Background(), fmt.Errorf("charge: %w", setMapped{}), http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeConflict, e.Code)
	assert.Equal(t, "billing", e.Upstream.Vendor)

	plain, err := NewSet(nil)
	require.NoError(t, err)
	_, ok = plain.Classifier().GoError(context.Background(), setMapped{}, http.MethodPost, false)
	assert.False(t, ok, "without the mapper no rule knows the error")

	_, err = NewSet(classify.New(nil), WithErrorMappers(m))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "classify.WithErrorMappers")
}

// TestSetReadsTheHeadersOfEachTranslation: the headers a Set reads once
// per translation are read again by the next one, so a Raw whose headers
// changed in between is translated by what it holds now; outside a
// translation ContentType reads the header itself.
func TestSetReadsTheHeadersOfEachTranslation(t *testing.T) {
	s := Default()
	page := []byte("<html><head><title>502 Bad Gateway</title></head><body>upstream down</body></html>")
	r := &Raw{Status: 502, Header: http.Header{"Content-Type": {"text/html"}, "Server": {"nginx/1.25.3"}}, Body: page}
	o, ok := s.Translate(r)
	require.True(t, ok)
	assert.Equal(t, "nginx", o.Vendor)
	assert.Equal(t, "text/html", r.ContentType())

	r.Header = http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "Server": {"envoy"}}
	r.Body = []byte("upstream connect error or disconnect/reset before headers. reset reason: connection failure")
	assert.Equal(t, "text/plain", r.ContentType(), "read again outside a translation")
	o, ok = s.Translate(r)
	require.True(t, ok)
	assert.Equal(t, "envoy", o.Vendor)
}
