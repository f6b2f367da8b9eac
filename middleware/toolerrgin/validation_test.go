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

// bindArgs are a tool's arguments, as a gin user declares them: Go names,
// json tags that differ, binding rules.
type bindArgs struct {
	Status     string `json:"status" binding:"required,oneof=open closed in_progress"`
	Limit      int    `json:"limit" binding:"min=1,max=100" toolerr:"cap"`
	CustomerID string `json:"customer_id" binding:"required,len=8"`
	Items      []item `json:"line_items" binding:"omitempty,dive"`
	Page
	Amount int64 `json:"amount_minor" binding:"omitempty,max=5000" toolerr:"norepair"`
}

type item struct {
	SKU string  `json:"sku" binding:"required,uppercase"`
	Qty int     `json:"qty" binding:"gt=0,lte=10"`
	Fee float64 `json:"fee" binding:"omitempty,lt=2.5"`
}

// Page is embedded: encoding/json promotes its fields.
type Page struct {
	Cursor string `json:"cursor" binding:"omitempty,min=4"`
}

// violation is a rendered violation as the tests compare it.
type violation struct {
	Field     string
	Allowed   any
	Suggested any
	Reason    string // a part of the reason
}

// TestValidation: a binding failure is VALIDATION_FAILED with one
// violation per failing field, at the json pointer of the client's
// names, with allowed values, and a suggestion only where deterministic.
func TestValidation(t *testing.T) {
	const valid = `"customer_id":"C0000042"`
	cases := []struct {
		name       string
		body       string
		want       []violation
		field      string // the top-level field
		suggested  any
		example    map[string]any
		noExample  bool
		hintPhrase string
	}{
		{name: "case-only difference from one oneof member", body: `{"status":"OPEN","limit":5,` + valid + `}`,
			want:  []violation{{Field: "/status", Allowed: []any{"open", "closed", "in_progress"}, Suggested: "open", Reason: "must be one of: open, closed, in_progress"}},
			field: "/status", suggested: "open", noExample: true, hintPhrase: `Set status to "open"`},
		{name: "a separator swapped", body: `{"status":"in-progress","limit":5,` + valid + `}`,
			want:  []violation{{Field: "/status", Allowed: []any{"open", "closed", "in_progress"}, Suggested: "in_progress"}},
			field: "/status", suggested: "in_progress", noExample: true},
		{name: "no near member: no suggestion", body: `{"status":"pending","limit":5,` + valid + `}`,
			want:  []violation{{Field: "/status", Allowed: []any{"open", "closed", "in_progress"}}},
			field: "/status", noExample: true},
		{name: "separators dropped are not repaired", body: `{"status":"inprogress","limit":5,` + valid + `}`,
			want:  []violation{{Field: "/status", Allowed: []any{"open", "closed", "in_progress"}}},
			field: "/status", noExample: true},
		{name: "clamp into min/max, with the whole range", body: `{"status":"open","limit":500,` + valid + `}`,
			want:  []violation{{Field: "/limit", Allowed: map[string]any{"minimum": float64(1), "maximum": float64(100)}, Suggested: float64(100), Reason: "must be at most 100"}},
			field: "/limit", suggested: float64(100), noExample: true},
		{name: "two repairs: an example proven valid", body: `{"status":"Closed","limit":500,` + valid + `}`,
			want: []violation{
				{Field: "/limit", Suggested: float64(100)},
				{Field: "/status", Suggested: "closed"},
			},
			field: "/limit", suggested: float64(100),
			// The client's members, repaired: none of the type's zero
			// values for what it did not send.
			example: map[string]any{"status": "closed", "limit": float64(100), "customer_id": "C0000042"}},
		{name: "below the minimum of a cap: never raised", body: `{"status":"open","limit":0,` + valid + `}`,
			want:  []violation{{Field: "/limit", Allowed: map[string]any{"minimum": float64(1), "maximum": float64(100)}, Reason: "must be at least 1"}},
			field: "/limit", noExample: true, hintPhrase: "Ask the user for limit, which must be at least 1"},
		{name: "missing and wrong length: ask the user", body: `{"limit":5,"customer_id":"C42"}`,
			want: []violation{
				{Field: "/customer_id", Allowed: map[string]any{"minLength": float64(8), "maxLength": float64(8)}, Reason: "must be exactly 8 characters long"},
				{Field: "/status", Allowed: []any{"open", "closed", "in_progress"}, Reason: "is required"},
			},
			field: "/customer_id", noExample: true,
			hintPhrase: "Ask the user for customer_id, which must be exactly 8 characters long; ask the user which status applies: open, closed or in_progress"},
		{name: "nested in a slice, json names, a quantity out of range asked", body: `{"status":"open","limit":5,` + valid + `,"line_items":[{"sku":"AB-1","qty":1},{"sku":"ab-2","qty":0}]}`,
			want: []violation{
				{Field: "/line_items/1/sku", Suggested: "AB-2"},
				{Field: "/line_items/1/qty", Allowed: map[string]any{"exclusiveMinimum": float64(0), "maximum": float64(10)}},
			},
			field: "/line_items/1/sku", suggested: "AB-2", noExample: true,
			hintPhrase: "ask the user for line_items/1/qty, which must be greater than 0"},
		{name: "a float's exclusive bound has no nearest value", body: `{"status":"open","limit":5,` + valid + `,"line_items":[{"sku":"A","qty":1,"fee":3}]}`,
			want:  []violation{{Field: "/line_items/0/fee", Allowed: map[string]any{"exclusiveMaximum": 2.5}}},
			field: "/line_items/0/fee", noExample: true},
		{name: "an embedded struct's field is the parent's in JSON", body: `{"status":"open","limit":5,` + valid + `,"cursor":"ab"}`,
			want:  []violation{{Field: "/cursor", Allowed: map[string]any{"minLength": float64(4)}}},
			field: "/cursor", noExample: true},
		{name: "norepair: an amount over its limit is the user's", body: `{"status":"open","limit":5,` + valid + `,"amount_minor":9000}`,
			want:  []violation{{Field: "/amount_minor", Allowed: map[string]any{"maximum": float64(5000)}}},
			field: "/amount_minor", noExample: true, hintPhrase: "Ask the user for amount_minor"},
	}
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/orders", toolerrgin.Tool("list_orders", func(c *gin.Context) error {
			var args bindArgs
			if err := toolerrgin.ShouldBindJSON(c, &args); err != nil {
				return err
			}
			c.JSON(200, args)
			return nil
		}))
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := call(t, srv, http.MethodPost, "/orders", tc.body)
			e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "list_orders")
			require.Len(t, e.Violations, len(tc.want), "body: %s", body)
			for i, w := range tc.want {
				v := e.Violations[i]
				assert.Equal(t, w.Field, v["field"], "violation %d", i)
				if w.Allowed != nil {
					assert.Equal(t, w.Allowed, v["allowed_values"], "violation %d", i)
				}
				assert.Equal(t, w.Suggested, v["suggested_value"], "violation %d", i)
				assert.Contains(t, v["reason"], w.Reason)
			}
			assert.Equal(t, tc.field, e.Field)
			assert.Equal(t, tc.suggested, e.SuggestedValue)
			if tc.noExample {
				assert.Nil(t, e.ExampleRequest)
			} else {
				assert.Equal(t, tc.example, e.ExampleRequest)
				requireValidExample(t, e.ExampleRequest)
			}
			assert.Contains(t, e.Hint, tc.hintPhrase)
		})
	}
}

// requireValidExample binds the example_request as the tool does: it
// decodes and validates.
func requireValidExample(t *testing.T, example map[string]any) {
	t.Helper()
	var args bindArgs
	raw, err := jsonMarshal(example)
	require.NoError(t, err)
	require.NoError(t, binding.JSON.BindBody(raw, &args), "example %s", raw)
}

// TestBindingIdioms: gin's own binding calls, without ShouldBindJSON's
// help, still give VALIDATION_FAILED with a field and allowed values;
// with a tag-name function registered on gin's validator (gin's
// recipe), the field is in json names.
func TestBindingIdioms(t *testing.T) {
	type plainArgs struct {
		Status string `json:"status" binding:"required,oneof=open closed"`
	}
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/bind", func(c *gin.Context) {
			var a plainArgs
			_ = c.Bind(&a) // AbortWithError(400, err).SetType(ErrorTypeBind)
		})
		r.POST("/should-bind", func(c *gin.Context) {
			var a plainArgs
			if err := c.ShouldBindJSON(&a); err != nil {
				_ = c.Error(err)
			}
		})
		r.POST("/big", func(c *gin.Context) {
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 8)
			var a plainArgs
			_ = c.Bind(&a) // binding's 413
		})
		r.POST("/type", func(c *gin.Context) {
			var a struct {
				Qty int `json:"qty"`
				Sub struct {
					N uint `json:"n_items"`
				} `json:"sub"`
			}
			if err := c.ShouldBindJSON(&a); err != nil {
				_ = c.AbortWithError(400, err)
			}
		})
	})
	cases := []struct {
		name, path, body, field, detail string
		allowed                         any
		suggested                       any
	}{
		// Middleware decorated gin's validator: gin's own binding calls
		// report json names.
		{name: "c.Bind: json names", path: "/bind", body: `{"status":"OPEN"}`, field: "/status",
			allowed: []any{"open", "closed"}, suggested: "open"},
		{name: "c.ShouldBindJSON and c.Error", path: "/should-bind", body: `{"status":"x"}`, field: "/status",
			allowed: []any{"open", "closed"}},
		{name: "a JSON type mismatch names the json field", path: "/type", body: `{"qty":"three"}`, field: "/qty",
			allowed: map[string]any{"type": "integer"}, detail: "qty must be an integer, not a string."},
		{name: "nested", path: "/type", body: `{"sub":{"n_items":-1}}`, field: "/sub/n_items", allowed: map[string]any{"type": "integer", "minimum": float64(0)},
			detail: "sub/n_items must be an integer of 0 or more."},
		{name: "a syntax error", path: "/type", body: `{"qty":`, detail: "The request body ends before its JSON value does."},
		{name: "not JSON", path: "/type", body: `{qty}`, detail: "The request body is not valid JSON"},
		{name: "an empty body", path: "/should-bind", body: "", detail: "The request body is empty."},
	}
	t.Run("a body over http.MaxBytesReader's limit", func(t *testing.T) {
		resp, body := call(t, srv, http.MethodPost, "/big", `{"status":"open","padding":"xxxxxxxxxxxxxxxx"}`)
		requireError(t, resp, body, 413, toolerr.CodePayloadTooLarge, "/big")
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := call(t, srv, http.MethodPost, tc.path, tc.body, "Content-Type", "application/json")
			e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, tc.path)
			assert.Equal(t, tc.field, e.Field)
			assert.Equal(t, tc.allowed, e.AllowedValues)
			assert.Equal(t, tc.suggested, e.SuggestedValue)
			assert.Contains(t, e.Detail, tc.detail)
		})
	}

	t.Run("a validator installed after Middleware: the validator's own names", func(t *testing.T) {
		v := validator.New()
		v.SetTagName("binding")
		saved := binding.Validator
		binding.Validator = structValidator{v} // not decorated: the adapter cannot tell the type
		t.Cleanup(func() { binding.Validator = saved })
		resp, body := call(t, srv, http.MethodPost, "/bind", `{"status":"OPEN"}`)
		e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/bind")
		assert.Equal(t, "/Status", e.Field)
		assert.Equal(t, []any{"open", "closed"}, e.AllowedValues)
		assert.NotContains(t, string(body), "plainArgs", "never the Go type's name")
	})

	t.Run("gin's recipe: json names registered on the validator", func(t *testing.T) {
		v := validator.New()
		v.SetTagName("binding")
		v.RegisterTagNameFunc(func(f reflect.StructField) string {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			return name
		})
		saved := binding.Validator
		binding.Validator = structValidator{v}
		t.Cleanup(func() { binding.Validator = saved })
		type args struct {
			CustomerID string `json:"customer_id" binding:"required"`
		}
		srv := serve(t, func(r *gin.Engine) {
			r.Use(toolerrgin.Middleware())
			r.POST("/c", func(c *gin.Context) {
				var a args
				if err := c.ShouldBindJSON(&a); err != nil {
					_ = c.Error(err)
				}
			})
		})
		resp, body := call(t, srv, http.MethodPost, "/c", `{}`)
		e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/c")
		assert.Equal(t, "/customer_id", e.Field)
	})
}

// TestSliceBinding: a slice of arguments, validated element by element,
// points at the failing element when the slice was bound with
// ShouldBindJSON.
func TestSliceBinding(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/items", toolerrgin.Tool("add_items", func(c *gin.Context) error {
			var items []item
			return toolerrgin.ShouldBindJSON(c, &items)
		}))
		r.POST("/items-plain", func(c *gin.Context) {
			var items []item
			if err := c.ShouldBindJSON(&items); err != nil {
				_ = c.Error(err)
			}
		})
	})
	body := `[{"sku":"A","qty":1},{"sku":"B","qty":1},{"sku":"c","qty":1}]`
	resp, b := call(t, srv, http.MethodPost, "/items", body)
	e := requireError(t, resp, b, 400, toolerr.CodeValidationFailed, "add_items")
	assert.Equal(t, "/2/sku", e.Field)
	assert.Equal(t, "C", e.SuggestedValue)

	// gin's own c.ShouldBindJSON, through the validator Middleware
	// decorated: the element is known too.
	resp, b = call(t, srv, http.MethodPost, "/items-plain", body)
	e = requireError(t, resp, b, 400, toolerr.CodeValidationFailed, "/items-plain")
	assert.Equal(t, "/2/sku", e.Field)
	assert.Equal(t, "C", e.SuggestedValue)

	// With a validator installed after Middleware, undecorated: which
	// element failed is not known, and nothing is guessed.
	v := validator.New()
	v.SetTagName("binding")
	saved := binding.Validator
	binding.Validator = sliceValidator{structValidator{v}}
	defer func() { binding.Validator = saved }()
	resp, b = call(t, srv, http.MethodPost, "/items-plain", body)
	e = requireError(t, resp, b, 400, toolerr.CodeValidationFailed, "/items-plain")
	assert.Equal(t, "", e.Field, "the failing element is not known")
	assert.Nil(t, e.SuggestedValue)
	require.Len(t, e.Violations, 1)
	assert.Contains(t, e.Violations[0]["reason"], "has an element whose SKU")
}

// TestExampleRequestIsTheClientsOwn: example_request is built from the
// body the client sent, so a member the client did not send never appears
// in it, with a zero value or any other; an unknown member the decoder
// ignored stays as sent; and a body the adapter could not keep whole (over
// its cap) gets the violations and their repairs but no example.
func TestExampleRequestIsTheClientsOwn(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/orders", func(c *gin.Context) {
			var args bindArgs
			if err := toolerrgin.ShouldBindJSON(c, &args); err != nil {
				_ = c.Error(err)
				return
			}
			c.JSON(200, args)
		})
	})
	resp, body := call(t, srv, http.MethodPost, "/orders", `{"status":"Closed","limit":500,"customer_id":"C0000042","note":"rush"}`)
	e := requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/orders")
	assert.Equal(t, map[string]any{"status": "closed", "limit": float64(100), "customer_id": "C0000042", "note": "rush"}, e.ExampleRequest)

	pad := strings.Repeat("x", 300<<10)
	resp, body = call(t, srv, http.MethodPost, "/orders", `{"status":"Closed","limit":500,"customer_id":"C0000042","note":"`+pad+`"}`)
	e = requireError(t, resp, body, 400, toolerr.CodeValidationFailed, "/orders")
	assert.Len(t, e.Violations, 2)
	assert.Nil(t, e.ExampleRequest, "a body over the kept cap: no example")
}

// sliceValidator validates a slice element by element, as gin's default
// validator does, one error per failing element.
type sliceValidator struct{ structValidator }

func (s sliceValidator) ValidateStruct(obj any) error {
	v := reflect.ValueOf(obj)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Slice {
		return s.structValidator.ValidateStruct(obj)
	}
	var errs binding.SliceValidationError
	for i := range v.Len() {
		if err := s.structValidator.ValidateStruct(v.Index(i).Interface()); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}
