package toolerrgin

import (
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/toolerr/toolerr/middleware"
)

// Tool adapts a gin handler that returns an error, under the tool name
// name: every error of the request carries it. Inside h, c.Param, c.Query
// and binding work as in any gin handler. A nil error means h wrote its
// response. A non-nil error is added to c.Errors (gin's logger still
// prints it) and reported in preference to any other error there, mapped
// as the package doc says: a *toolerr.Error as is, a binding error as
// VALIDATION_FAILED, anything else classified or INTERNAL_ERROR, its text
// never sent.
//
//	r.POST("/orders/search", toolerrgin.Tool("search_orders", search))
//
// Under [Middleware], Tool uses that middleware's options; a Tool no
// Middleware covers runs under one with the default options.
func Tool(name string, h func(c *gin.Context) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		a, ok := c.Writer.(*above)
		if !ok || a.done || a.call == nil {
			defaultAdapter().serve(c, func() { runTool(c, name, h) })
			return
		}
		runTool(c, name, h)
	}
}

// runTool names the tool and runs h under the adapter serving c.
func runTool(c *gin.Context, name string, h func(c *gin.Context) error) {
	middleware.NameTool(c.Request.Context(), name)
	err := h(c)
	if err == nil {
		return
	}
	ge, ok := err.(*gin.Error)
	if !ok || !slices.Contains(c.Errors, ge) {
		// return c.AbortWithError(…) hands back the entry c.Errors has:
		// it is not added twice.
		ge = c.Error(err)
	}
	if a, ok := c.Writer.(*above); ok && a.call != nil {
		a.call.tool = ge
	}
}
