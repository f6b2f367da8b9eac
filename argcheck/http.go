package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/toolerr/toolerr"
)

// Middleware validates the JSON body of every request with a body (POST,
// PUT, PATCH, or any request whose body is not empty) against s before
// next runs, and answers a violation with its VALIDATION_FAILED through
// [toolerr.Write]; a body over the limit ([WithMaxBytes]) is
// PAYLOAD_TOO_LARGE. next reads exactly the bytes the client sent. A
// request without a body (GET, HEAD) passes unchecked: its arguments are
// not JSON.
//
// Mounted per tool, among the tool's own middlewares:
//
//	r.Post("/tools/search_orders", middleware.ToolFunc("search_orders", search, schema.Middleware))
func (s *Schema) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hasBody(r) {
			next.ServeHTTP(w, r)
			return
		}
		raw, err := s.readBody(r)
		if err == nil {
			err = s.CheckJSON(raw)
		}
		if err != nil {
			toolerr.Write(w, r, err, toolerr.WithRegistry(s.registry))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Decode reads r's JSON body, checks it against s and decodes it into a T:
// the one call an HTTP tool handler makes for its arguments.
//
//	args, err := argcheck.Decode[SearchArgs](r, schema)
//	if err != nil {
//		return err // VALIDATION_FAILED, with every violation and its repair
//	}
//
// A body over the limit is PAYLOAD_TOO_LARGE; a failed read is returned as
// it is. When valid JSON does not decode into T (a schema that allows what
// T cannot hold), the error is VALIDATION_FAILED at the value's pointer.
func Decode[T any](r *http.Request, s *Schema) (T, error) {
	var v T
	raw, err := s.readBody(r)
	if err != nil {
		return v, err
	}
	if err := s.CheckJSON(raw); err != nil {
		return v, err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, TypeMismatch(s.registry, err)
	}
	return v, nil
}

// TypeMismatch is the VALIDATION_FAILED of arguments that are valid JSON
// but do not unmarshal into the handler's Go type (err from
// encoding/json): at the value's pointer when err names it (a
// *json.UnmarshalTypeError), else at the arguments as a whole. reg nil
// means toolerr.Default().
func TypeMismatch(reg *toolerr.Registry, err error) *toolerr.Error {
	if reg == nil {
		reg = toolerr.Default()
	}
	if e, ok := DecodeError(reg, err); ok {
		return e
	}
	return reg.New(toolerr.CodeValidationFailed, "The arguments do not match the tool's input schema.").
		WithCause(err)
}

// readBody reads r's body, at most s.maxBytes, and puts the bytes back
// for whatever reads it next.
func (s *Schema) readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, s.maxBytes+1))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge), err == nil && int64(len(raw)) > s.maxBytes:
		return nil, s.registry.New(toolerr.CodePayloadTooLarge,
			"The arguments are over the "+strconv.FormatInt(s.maxBytes, 10)+"-byte limit.")
	case err != nil:
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(raw)), nil }
	return raw, nil
}

// hasBody reports whether r carries arguments in its body.
func hasBody(r *http.Request) bool {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		return true
	}
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}
