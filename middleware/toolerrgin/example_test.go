package toolerrgin_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// Mount the middleware in one line: gin's own way of failing, c.Error,
// becomes a structured error instead of an empty 200.
func ExampleMiddleware() {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(toolerrgin.Middleware())
	r.GET("/orders/:id", func(c *gin.Context) {
		_ = c.AbortWithError(http.StatusConflict,
			toolerr.Default().New(toolerr.CodeConflict, "Order "+c.Param("id")+" was changed by another call.").
				WithField("/version"))
	})

	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/orders/42", nil))
	var e struct {
		Code, Detail, Field, Tool string
	}
	_ = json.Unmarshal(w.Body.Bytes(), &e)
	fmt.Println(w.Code, e.Code, e.Field, e.Tool)
	fmt.Println(e.Detail)
	// Output:
	// 409 CONFLICT /version /orders/:id
	// Order 42 was changed by another call.
}

// A Tool returns its error; binding with ShouldBindJSON makes a bad
// argument a VALIDATION_FAILED at the client's field name, with the
// allowed values and the one repair that is certain.
func ExampleTool() {
	gin.SetMode(gin.ReleaseMode)
	type args struct {
		Status string `json:"status" binding:"required,oneof=open closed"`
	}
	search := func(c *gin.Context) error {
		var a args
		if err := toolerrgin.ShouldBindJSON(c, &a); err != nil {
			return err
		}
		c.JSON(http.StatusOK, gin.H{"status": a.Status})
		return nil
	}
	r := gin.New()
	r.Use(toolerrgin.Middleware())
	r.POST("/orders/search", toolerrgin.Tool("search_orders", search))

	w := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/orders/search", strings.NewReader(`{"status":"OPEN"}`))
	req.Header.Set("Content-Type", "application/json")
	r.ServeHTTP(w, req)
	var e struct {
		Code           string `json:"code"`
		Tool           string `json:"tool"`
		Field          string `json:"field"`
		AllowedValues  any    `json:"allowed_values"`
		SuggestedValue any    `json:"suggested_value"`
		Hint           string `json:"hint"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &e)
	fmt.Println(w.Code, e.Code, e.Tool)
	fmt.Println(e.Field, e.AllowedValues, e.SuggestedValue)
	fmt.Println(e.Hint)
	// Output:
	// 400 VALIDATION_FAILED search_orders
	// /status [open closed] open
	// Set status to "open". Then call again.
}

// Decorate gin's validator once, at setup: gin's own binding calls then
// report the client's field names and a repaired request proven valid.
func ExampleValidator() {
	saved := binding.Validator
	defer func() { binding.Validator = saved }()
	binding.Validator = toolerrgin.Validator(binding.Validator)

	gin.SetMode(gin.ReleaseMode)
	type args struct {
		Status string `json:"status" binding:"required,oneof=open closed"`
		Limit  int    `json:"limit" binding:"min=1,max=100" toolerr:"cap"`
	}
	r := gin.New()
	r.Use(toolerrgin.Middleware())
	r.POST("/orders/search", func(c *gin.Context) {
		var a args
		if err := c.ShouldBindJSON(&a); err != nil {
			_ = c.Error(err)
			return
		}
		c.JSON(http.StatusOK, a)
	})

	w := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/orders/search", strings.NewReader(`{"status":"Open","limit":500}`))
	req.Header.Set("Content-Type", "application/json")
	r.ServeHTTP(w, req)
	var e struct {
		Field          string         `json:"field"`
		ExampleRequest map[string]any `json:"example_request"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &e)
	fmt.Println(w.Code, e.Field, e.ExampleRequest)
	// Output:
	// 400 /limit map[limit:100 status:open]
}

// A call to a mistyped tool path is told the route it most plausibly
// meant. Served by r.Run or an http.Server whose handler is the engine,
// Middleware lists the engine's routes itself; here the engine is called
// directly, so Routes gives them.
func ExampleRoutes() {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(toolerrgin.Middleware(middleware.WithToolRoutes(toolerrgin.Routes(r))))
	r.POST("/tools/search_orders", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"orders": []string{}}) })

	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/tools/search_order", nil))
	e, _ := toolerr.Parse(w.Body.Bytes())
	fmt.Println(w.Code, e.Code, e.SuggestedValue)
	// Output:
	// 404 TOOL_NOT_FOUND POST /tools/search_orders
}
