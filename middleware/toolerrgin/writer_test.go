package toolerrgin_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// TestWriterMatchesGin: below 400, c.Writer under toolerr answers
// Status, Size and Written exactly as gin's own writer does, step by
// step, and the client gets the same response.
func TestWriterMatchesGin(t *testing.T) {
	type op func(w gin.ResponseWriter)
	cases := []struct {
		name string
		ops  []op
	}{
		{"lazy statuses, the last wins", []op{
			func(w gin.ResponseWriter) { w.WriteHeader(201) },
			func(w gin.ResponseWriter) { w.WriteHeader(202) },
			func(w gin.ResponseWriter) { _, _ = w.Write([]byte("abc")) },
			func(w gin.ResponseWriter) { w.WriteHeader(203) },
			func(w gin.ResponseWriter) { _, _ = w.WriteString("de") },
		}},
		{"WriteHeaderNow, then writes", []op{
			func(w gin.ResponseWriter) { w.WriteHeader(206) },
			func(w gin.ResponseWriter) { w.WriteHeaderNow() },
			func(w gin.ResponseWriter) { w.WriteHeaderNow() },
			func(w gin.ResponseWriter) { _, _ = w.WriteString("x") },
		}},
		{"flush commits the status", []op{
			func(w gin.ResponseWriter) { w.WriteHeader(202) },
			func(w gin.ResponseWriter) { w.Flush() },
			func(w gin.ResponseWriter) { w.WriteHeader(200) },
			func(w gin.ResponseWriter) { _, _ = w.Write([]byte("y")) },
		}},
		{"nothing written", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var traces [2][]string
			for i, mw := range []gin.HandlerFunc{nil, toolerrgin.Middleware()} {
				srv := serve(t, func(r *gin.Engine) {
					if mw != nil {
						r.Use(mw)
					}
					r.GET("/w", func(c *gin.Context) {
						for _, o := range tc.ops {
							o(c.Writer)
							traces[i] = append(traces[i], fmt.Sprintf("%d/%d/%t", c.Writer.Status(), c.Writer.Size(), c.Writer.Written()))
						}
					})
				})
				resp, body := call(t, srv, http.MethodGet, "/w", "")
				traces[i] = append(traces[i], fmt.Sprintf("client %d %q", resp.StatusCode, body))
			}
			assert.Equal(t, strings.Join(traces[0], "\n"), strings.Join(traces[1], "\n"))
		})
	}
}
