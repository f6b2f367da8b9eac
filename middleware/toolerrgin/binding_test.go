package toolerrgin_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"
	"github.com/go-playground/validator/v10"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// TestManyViolations: a client that sends hundreds of bad items gets a
// valid error of bounded size, not one violation per item without end.
func TestManyViolations(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/orders", toolerrgin.Tool("list_orders", func(c *gin.Context) error {
			var args bindArgs
			return toolerrgin.ShouldBindJSON(c, &args)
		}))
	})
	var b strings.Builder
	b.WriteString(`{"status":"Open","limit":5,"customer_id":"C0000042","line_items":[`)
	for i := range 400 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"sku":"ab-` + strings.Repeat("x", 40) + `","qty":99}`)
	}
	b.WriteString(`]}`)
	resp, body := call(t, srv, http.MethodPost, "/orders", b.String())
	e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "list_orders")
	assert.LessOrEqual(t, len(e.Violations), toolerr.MaxViolations)
	assert.Less(t, len(body), 64<<10)
}

// TestValidatorDecoration: with gin's validator decorated by
// toolerrgin.Validator, gin's own binding calls (c.ShouldBindJSON,
// c.Bind) point at json names and carry proven examples, and the errors
// keep their types and messages for code that reads them.
func TestValidatorDecoration(t *testing.T) {
	saved := binding.Validator
	binding.Validator = toolerrgin.Validator(binding.Validator)
	t.Cleanup(func() { binding.Validator = saved })
	assert.Equal(t, binding.Validator, toolerrgin.Validator(binding.Validator), "decorating twice is once")

	var typed bool
	var message string
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/orders", func(c *gin.Context) {
			var args bindArgs
			if err := c.ShouldBindJSON(&args); err != nil {
				_, typed = err.(validator.ValidationErrors)
				message = err.Error()
				_ = c.Error(err)
			}
		})
		r.POST("/bind", func(c *gin.Context) {
			var args bindArgs
			_ = c.Bind(&args)
		})
		r.POST("/items", func(c *gin.Context) {
			var items []item
			_ = c.Bind(&items)
		})
	})
	resp, body := call(t, srv, http.MethodPost, "/orders", `{"status":"Closed","limit":500,"customer_id":"C0000042"}`)
	e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/orders")
	assert.True(t, typed, "the error is still validator.ValidationErrors")
	assert.Contains(t, message, "Key: 'bindArgs.Limit' Error:Field validation for 'Limit' failed on the 'max' tag")
	assert.Equal(t, "/limit", e.Field)
	assert.Equal(t, float64(100), e.SuggestedValue, "limit is tagged toolerr:\"cap\"")
	assert.Equal(t, "closed", e.ExampleRequest["status"])
	requireValidExample(t, e.ExampleRequest)

	resp, body = call(t, srv, http.MethodPost, "/bind", `{"limit":5,"customer_id":"C0000042","line_items":[{"sku":"A","qty":1},{"sku":"b","qty":1}]}`)
	e = requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/bind")
	assert.Equal(t, "/line_items/1/sku", e.Field)
	assert.Equal(t, "B", e.SuggestedValue)

	resp, body = call(t, srv, http.MethodPost, "/items", `[{"sku":"A","qty":1},{"sku":"B","qty":1},{"sku":"C","qty":0}]`)
	e = requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/items")
	assert.Equal(t, "/2/qty", e.Field)
	assert.Nil(t, e.SuggestedValue, "a quantity of 0 is never raised to 1")
	assert.Contains(t, e.Hint, "Ask the user for 2/qty, which must be greater than 0")
}

// TestCrossField: a cross-field rule names the other field as the client
// does, never by its Go name; pointer fields are repaired like values.
func TestCrossField(t *testing.T) {
	type window struct {
		StartDay int `json:"start_day" binding:"required"`
		EndDay   int `json:"end_day" binding:"required,gtfield=StartDay"`
	}
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/typed", toolerrgin.Tool("book", func(c *gin.Context) error {
			var w window
			return toolerrgin.ShouldBindJSON(c, &w)
		}))
		r.POST("/pointer", toolerrgin.Tool("pointers", func(c *gin.Context) error {
			var a struct {
				Status *string `json:"status" binding:"omitempty,oneof=open closed"`
				Limit  *int    `json:"limit" binding:"omitempty,max=100" toolerr:"cap"`
			}
			return toolerrgin.ShouldBindJSON(c, &a)
		}))
		r.POST("/plain", func(c *gin.Context) {
			var w window
			if err := c.ShouldBindJSON(&w); err != nil {
				_ = c.Error(err)
			}
		})
	})
	resp, body := call(t, srv, http.MethodPost, "/typed", `{"start_day":5,"end_day":3}`)
	e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "book")
	assert.Equal(t, "/end_day", e.Field)
	assert.Equal(t, "end_day must be greater than start_day.", e.Detail)
	assert.Nil(t, e.SuggestedValue)

	resp, body = call(t, srv, http.MethodPost, "/pointer", `{"status":"CLOSED","limit":250}`)
	e = requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "pointers")
	require.Len(t, e.Violations, 2)
	assert.Equal(t, float64(100), e.Violations[0]["suggested_value"])
	assert.Equal(t, "closed", e.Violations[1]["suggested_value"])
	assert.Equal(t, map[string]any{"status": "closed", "limit": float64(100)}, e.ExampleRequest)

	// gin's own c.ShouldBindJSON, through the validator Middleware
	// decorated: json names, the other field named.
	resp, body = call(t, srv, http.MethodPost, "/plain", `{"start_day":5,"end_day":3}`)
	e = requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/plain")
	assert.Equal(t, "end_day must be greater than start_day.", e.Detail)

	// A validator installed after Middleware, undecorated: the other field
	// is not named rather than named by its Go name.
	v := validator.New()
	v.SetTagName("binding")
	saved := binding.Validator
	binding.Validator = structValidator{v}
	defer func() { binding.Validator = saved }()
	resp, body = call(t, srv, http.MethodPost, "/plain", `{"start_day":5,"end_day":3}`)
	e = requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/plain")
	assert.Equal(t, "EndDay must be greater than another argument.", e.Detail)
	assert.NotContains(t, string(body), "StartDay")
}

// TestQueryBinding: a query value that does not parse is the client's
// fault when bound with c.BindQuery (gin marks it) or ShouldBindWith (the
// adapter knows), however the handler reports it.
func TestQueryBinding(t *testing.T) {
	type query struct {
		Limit int `form:"limit"`
	}
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.GET("/gin", func(c *gin.Context) {
			var q query
			_ = c.BindQuery(&q)
		})
		r.GET("/helper", toolerrgin.Tool("search", func(c *gin.Context) error {
			var q query
			return toolerrgin.ShouldBindWith(c, &q, binding.Query)
		}))
	})
	for _, path := range []string{"/gin", "/helper"} {
		resp, body := call(t, srv, http.MethodGet, path+"?limit=ten", "")
		tool := map[string]string{"/gin": "/gin", "/helper": "search"}[path]
		e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, tool)
		assert.NotContains(t, e.Detail, "strconv")
	}
}

// TestUnknownProperty: with gin's decoder refusing unknown fields, the
// agent is told which property the tool does not take.
func TestUnknownProperty(t *testing.T) {
	binding.EnableDecoderDisallowUnknownFields = true
	t.Cleanup(func() { binding.EnableDecoderDisallowUnknownFields = false })
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/orders", func(c *gin.Context) {
			var a bindArgs
			_ = c.Bind(&a)
		})
	})
	resp, body := call(t, srv, http.MethodPost, "/orders", `{"status":"open","limit":5,"customer_id":"C0000042","colour":"red"}`)
	e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/orders")
	assert.Contains(t, e.Detail, `"colour"`)
	require.Len(t, e.Violations, 1)
	assert.Contains(t, e.Hint, `ask the user where it belongs. Never drop it.`, "a value the user gave is never dropped quietly")
}

// structValidator is a binding.StructValidator over a validator of its
// own, as gin's docs show for customizing validation.
type structValidator struct{ v *validator.Validate }

func (s structValidator) ValidateStruct(obj any) error {
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct || v.Kind() == reflect.Struct {
		return s.v.Struct(obj)
	}
	return nil
}

func (s structValidator) Engine() any { return s.v }
