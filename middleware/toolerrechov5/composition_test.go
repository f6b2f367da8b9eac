package toolerrechov5_test

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/labstack/echo/v5"
	echomw "github.com/labstack/echo/v5/middleware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// quietRecover is echo's Recover, its stack print off.
func quietRecover() echo.MiddlewareFunc {
	return echomw.RecoverWithConfig(echomw.RecoverConfig{DisablePrintStack: true})
}

// TestPanics: a panic, its value carrying a key and a host, is
// INTERNAL_ERROR problem+json with no stack and no secret, never an empty
// 200, whether echo's Recover runs before toolerr, after it, or not at all.
func TestPanics(t *testing.T) {
	stacks := map[string][]echo.MiddlewareFunc{
		"no Recover":             {toolerrMW()},
		"Recover before toolerr": {quietRecover(), toolerrMW()},
		"Recover after toolerr":  {toolerrMW(), quietRecover()},
	}
	for name, mws := range stacks {
		for _, path := range []string{"/panic/1", "/panic-error/1"} {
			t.Run(name+" "+path, func(t *testing.T) {
				resp, body := do(t, "GET", serve(t, newEcho(mws...))+path, nil, "")
				require.Equal(t, http.StatusInternalServerError, resp.StatusCode, "%s", body)
				assert.Equal(t, toolerr.ContentTypeProblem, resp.Header.Get("Content-Type"))
				p := problem(t, resp, body)
				assert.Equal(t, toolerr.CodeInternal, p["code"])
				assert.Equal(t, path[:len(path)-1]+":id", p["tool"])
				assert.NotContains(t, string(body), "nil map")
				assert.NotContains(t, string(body), "boom")
			})
		}
	}
}

// TestPanicAfterTheResponseStarted: a panic after a 200 was sent cannot
// become an error response; the connection is aborted, so the client sees
// a broken response, never a whole-looking one, and nothing of the panic,
// with echo's Recover before toolerr, after it, or without.
func TestPanicAfterTheResponseStarted(t *testing.T) {
	stacks := map[string][]echo.MiddlewareFunc{
		"no Recover":             {toolerrMW()},
		"Recover before toolerr": {quietRecover(), toolerrMW()},
		"Recover after toolerr":  {toolerrMW(), quietRecover()},
	}
	for name, mws := range stacks {
		t.Run(name, func(t *testing.T) {
			resp, err := http.Get(serve(t, newEcho(mws...)) + "/stream-panic/1")
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode, "sent before the panic")
			body, err := io.ReadAll(resp.Body)
			if name == "Recover after toolerr" && err == nil {
				// echo's Recover took the panic: echo's error handler found
				// the response committed and wrote nothing more.
				assert.Equal(t, "partial", string(body))
				return
			}
			assert.Error(t, err, "the response is broken off, not whole-looking")
			clean(t, body)
		})
	}
}

// idLog records the ids echo's RequestID hands the service.
type idLog struct {
	mu  sync.Mutex
	ids []string
}

// requestID is echo's RequestID, its ids recorded in l.
func (l *idLog) requestID() echo.MiddlewareFunc {
	return echomw.RequestIDWithConfig(echomw.RequestIDConfig{RequestIDHandler: func(_ *echo.Context, id string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.ids = append(l.ids, id)
	}})
}

// seen returns the ids recorded.
func (l *idLog) seen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.ids...)
}

// TestOneRequestID: with echo's RequestID before or after toolerr, or
// without it, the client sees one id, the same in X-Request-Id and
// request_id, and it is the id echo's RequestID handed the service (its
// RequestIDHandler, which services log with). A valid incoming id is kept;
// an invalid one (a key in it) is replaced in the response. (echo's
// RequestID before toolerr takes a client's id as it is, invalid or not,
// before toolerr could judge it.)
func TestOneRequestID(t *testing.T) {
	const before, after, none = "RequestID before toolerr", "RequestID after toolerr", "no RequestID"
	stacks := map[string]func(l *idLog) []echo.MiddlewareFunc{
		none:   func(*idLog) []echo.MiddlewareFunc { return []echo.MiddlewareFunc{toolerrMW()} },
		before: func(l *idLog) []echo.MiddlewareFunc { return []echo.MiddlewareFunc{l.requestID(), toolerrMW()} },
		after:  func(l *idLog) []echo.MiddlewareFunc { return []echo.MiddlewareFunc{toolerrMW(), l.requestID()} },
	}
	incoming := map[string]struct {
		id   string
		kept bool
	}{
		"no incoming id":      {"", false},
		"a valid incoming id": {"req-7f3a9c", true},
		"an id with a key":    {"key=" + stripeKey, false},
		"a key as the id":     {stripeKey, false}, // a valid id's characters: the sanitizer rejects it
	}
	for name, mws := range stacks {
		for iname, in := range incoming {
			for _, path := range []string{"/orders/1", "/orders/42", "/panic/1", "/no/such/tool"} {
				t.Run(fmt.Sprintf("%s/%s%s", name, iname, path), func(t *testing.T) {
					l := &idLog{}
					h := http.Header{}
					if in.id != "" {
						h.Set("X-Request-Id", in.id)
					}
					resp, body := do(t, "GET", serve(t, newEcho(mws(l)...))+path, h, "")
					ids := resp.Header.Values("X-Request-Id")
					require.Len(t, ids, 1, "one id in the response")
					id := ids[0]
					assert.True(t, toolerr.ValidRequestID(id))
					if in.kept {
						assert.Equal(t, in.id, id)
					} else {
						assert.NotEqual(t, in.id, id)
					}
					if resp.StatusCode >= 400 {
						assert.Equal(t, id, problem(t, resp, body)["request_id"])
					}
					switch {
					case name == none:
						assert.Empty(t, l.seen())
					case name == before && in.id != "" && !in.kept:
						assert.Equal(t, []string{in.id}, l.seen(), "echo took the client's id before toolerr could judge it")
					default:
						assert.Equal(t, []string{id}, l.seen(), "echo's RequestID handed the service the client's id")
					}
				})
			}
		}
	}
}

// TestRequestLoggerSeesWhatTheClientGot: echo's RequestLogger mounted
// before toolerr logs the status, size and request id the client received,
// the error's, not what the handler wrote or returned.
func TestRequestLoggerSeesWhatTheClientGot(t *testing.T) {
	for _, path := range []string{"/orders/1", "/orders/7", "/carriers/1", "/panic/1", "/orders/42"} {
		t.Run(path, func(t *testing.T) {
			logged := make(chan echomw.RequestLoggerValues, 1)
			logger := echomw.RequestLoggerWithConfig(echomw.RequestLoggerConfig{
				LogStatus: true, LogResponseSize: true, LogRequestID: true,
				LogValuesFunc: func(_ *echo.Context, v echomw.RequestLoggerValues) error {
					logged <- v
					return nil
				},
			})
			resp, body := do(t, "GET", serve(t, newEcho(logger, toolerrMW()))+path, nil, "")
			v := <-logged
			assert.Equal(t, resp.StatusCode, v.Status)
			assert.Equal(t, int64(len(body)), v.ResponseSize)
			assert.Equal(t, resp.Header.Get("X-Request-Id"), v.RequestID)
		})
	}
}
