package toolerrgin

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// finish hands the request's error to the middleware when the handlers
// behind the adapter have returned, or sends the status they chose but
// did not write.
//
// gin's writer writes a status lazily, and gin ends every request with
// WriteHeaderNow, which sends 200 when nothing was written: so a request
// with an error in c.Errors and nothing written (c.Error(err) alone) must
// have its error reported here, or it goes out as an empty 200. A status
// of 400 or more chosen and not written (c.Status(500)) is sent to the
// middleware, which captures it; one below 400 is left lazy in gin's
// writer, as gin would, so that an outer middleware may still change it.
func (cl *call) finish(ctx context.Context) {
	status := cl.a.status
	if ge := cl.chosen(); ge != nil {
		middleware.ReportError(ctx, mapError(cl, ge, status))
		return
	}
	if cl.noRoute && status == http.StatusNotFound {
		reportRoutes(ctx) // routes.go: the nearest are listed
		middleware.ReportError(ctx, toolerr.Default().New(toolerr.CodeToolNotFound, ""))
		return
	}
	if cl.a.Written() {
		return
	}
	if status >= 400 {
		cl.a.WriteHeaderNow()
		return
	}
	cl.b.ResponseWriter.WriteHeader(status)
}

// chosen returns the error to report: the one a [Tool] adapter returned,
// else the most specific of c.Errors (a *toolerr.Error, then an argument
// error, then any), the latest of equals; nil when there is none.
func (cl *call) chosen() *gin.Error {
	if cl.tool != nil {
		return cl.tool
	}
	var best *gin.Error
	rank := -1
	for _, ge := range cl.c.Errors {
		if ge == nil || ge.Err == nil {
			continue
		}
		if r := specificity(ge); r >= rank {
			best, rank = ge, r
		}
	}
	return best
}

// specificity ranks an error of c.Errors by how much it says.
func specificity(ge *gin.Error) int {
	if _, ok := toolerr.From(ge.Err); ok {
		return 2
	}
	if argumentError(ge) {
		return 1
	}
	return 0
}
