package toolerrgin

import (
	"reflect"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"
)

// ShouldBindJSON is c.ShouldBindJSON(obj) that also tells the adapter
// what obj is, so that a validation failure of it points at the json
// names of obj's fields ("/customer_id", where the validator says
// "bindArgs.CustomerID"), knows each field's other rules (a range's
// other end), and can offer an example_request proven valid. Its result
// is exactly c.ShouldBindJSON's: report it as any error (return it from
// a [Tool], or c.Error(err)).
func ShouldBindJSON(c *gin.Context, obj any) error {
	return ShouldBindWith(c, obj, binding.JSON)
}

// ShouldBindWith is c.ShouldBindWith(obj, b), telling the adapter what
// obj is, as [ShouldBindJSON] does.
//
// Any other error of binding (a query or form value that does not parse)
// is known to be the client's: it is VALIDATION_FAILED, as c.Bind's is,
// however it is reported.
func ShouldBindWith(c *gin.Context, obj any, b binding.Binding) error {
	a, ok := c.Writer.(*above)
	if !ok || a.done || a.call == nil {
		return c.ShouldBindWith(obj, b)
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && !v.IsNil() {
		a.call.args = &boundArgs{ptr: v}
	}
	err := c.ShouldBindWith(obj, b)
	if err != nil {
		a.call.bindErr = err
	}
	return err
}

// boundArgs is the value arguments were bound into: a non-nil pointer.
type boundArgs struct {
	ptr reflect.Value
}

// bound returns the arguments bound for the request, or nil.
func (cl *call) bound() *boundArgs { return cl.args }

// rootType is the type bound into, nil when unknown.
func (b *boundArgs) rootType() reflect.Type {
	if b == nil {
		return nil
	}
	return b.ptr.Type().Elem()
}

// structField returns the struct field a validator struct namespace ends
// at, nil when it ends at an element (a dive's) or does not resolve.
func (b *boundArgs) structField(structNamespace string) *reflect.StructField {
	t := b.rootType()
	if t == nil {
		return nil
	}
	segs := parseNamespace(structNamespace)
	t = deref(t)
	if t.Name() != "" && len(segs) > 0 {
		segs = segs[1:] // the root struct's own name
	}
	if len(segs) == 0 || segs[len(segs)-1].index {
		return nil
	}
	var sf reflect.StructField
	for _, s := range segs {
		t = deref(t)
		switch {
		case s.index && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map):
			t = t.Elem()
		case !s.index && t.Kind() == reflect.Struct:
			f, ok := t.FieldByName(s.name)
			if !ok {
				return nil
			}
			sf, t = f, f.Type
		default:
			return nil
		}
	}
	return &sf
}

// failingElements returns the indices of the elements of a bound slice
// that fail validation by v, in order; nil when the bound value is no
// slice.
func (b *boundArgs) failingElements(v binding.StructValidator) []int {
	if b == nil || v == nil {
		return nil
	}
	s := b.ptr.Elem()
	if s.Kind() != reflect.Slice && s.Kind() != reflect.Array {
		return nil
	}
	var out []int
	for i := range s.Len() {
		if v.ValidateStruct(s.Index(i).Interface()) != nil {
			out = append(out, i)
		}
	}
	return out
}

// element returns the i-th element of a bound slice as bound arguments.
func (b *boundArgs) element(i int) *boundArgs {
	e := b.ptr.Elem().Index(i)
	if e.Kind() == reflect.Pointer {
		if e.IsNil() {
			return nil
		}
		return &boundArgs{ptr: e}
	}
	return &boundArgs{ptr: e.Addr()}
}
