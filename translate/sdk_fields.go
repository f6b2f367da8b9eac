package translate

import (
	"net/http"
	"reflect"
	"time"
)

// sdkFields reads an SDK error's struct by field name, without importing
// the SDK: the fields that every major version of an SDK has kept
// (stripe-go's HTTPStatusCode and LastResponse, a Stainless SDK's
// StatusCode and Response) are read whatever the package's major version.
// A field that is missing, unexported, of another kind, or behind a nil
// embedded pointer reads as its zero value; nothing panics.
type sdkFields struct{ v reflect.Value }

// fieldsOf returns the struct behind e (a pointer to a struct, or a
// struct); ok is false for anything else or a nil pointer.
func fieldsOf(e any) (sdkFields, bool) {
	return fieldsOfValue(reflect.ValueOf(e))
}

// fieldsOfValue is fieldsOf of a reflected value.
func fieldsOfValue(v reflect.Value) (sdkFields, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return sdkFields{}, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return sdkFields{}, false
	}
	return sdkFields{v}, true
}

// field returns the exported field name, promoted ones included; ok is
// false when there is none or it is behind a nil embedded pointer.
func (f sdkFields) field(name string) (reflect.Value, bool) {
	sf, ok := f.v.Type().FieldByName(name)
	if !ok || !sf.IsExported() {
		return reflect.Value{}, false
	}
	v, err := f.v.FieldByIndexErr(sf.Index)
	if err != nil {
		return reflect.Value{}, false
	}
	return v, true
}

// has reports whether the struct has the exported field name.
func (f sdkFields) has(name string) bool {
	_, ok := f.field(name)
	return ok
}

// str returns a field of a string kind (stripe.ErrorCode is one), or of a
// pointer to one; "" otherwise.
func (f sdkFields) str(name string) string {
	v, ok := f.field(name)
	if !ok {
		return ""
	}
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.String {
		return ""
	}
	return v.String()
}

// int returns a field of a signed integer kind; 0 otherwise.
func (f sdkFields) int(name string) int {
	v, ok := f.field(name)
	if !ok {
		return 0
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(v.Int())
	}
	return 0
}

// bytes returns a field of type []byte.
func (f sdkFields) bytes(name string) []byte {
	b, _ := fieldAs[[]byte](f, name)
	return b
}

// header returns a field of type http.Header.
func (f sdkFields) header(name string) http.Header {
	h, _ := fieldAs[http.Header](f, name)
	return h
}

// response returns a field of type *http.Response.
func (f sdkFields) response(name string) *http.Response {
	r, _ := fieldAs[*http.Response](f, name)
	return r
}

// request returns a field of type *http.Request.
func (f sdkFields) request(name string) *http.Request {
	r, _ := fieldAs[*http.Request](f, name)
	return r
}

// duration returns a field of type *time.Duration or time.Duration; 0
// when it is nil or missing.
func (f sdkFields) duration(name string) time.Duration {
	if d, ok := fieldAs[*time.Duration](f, name); ok && d != nil {
		return *d
	}
	d, _ := fieldAs[time.Duration](f, name)
	return d
}

// sub returns the struct a field holds (a struct or a pointer to one).
func (f sdkFields) sub(name string) (sdkFields, bool) {
	v, ok := f.field(name)
	if !ok {
		return sdkFields{}, false
	}
	return fieldsOfValue(v)
}

// value returns a field's value as an interface, for encoding it; nil
// when the field is missing, a nil pointer or an empty slice or map.
func (f sdkFields) value(name string) any {
	v, ok := f.field(name)
	if !ok {
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
	case reflect.Slice, reflect.Map:
		if v.Len() == 0 {
			return nil
		}
	}
	return v.Interface()
}

// fieldAs returns a field whose type is exactly T.
func fieldAs[T any](f sdkFields, name string) (T, bool) {
	var zero T
	v, ok := f.field(name)
	if !ok {
		return zero, false
	}
	t, ok := v.Interface().(T)
	return t, ok
}

// typeName returns the name of e's type without package or pointer:
// "ErrorResponse" for a *github.ErrorResponse.
func typeName(e any) string {
	t := reflect.TypeOf(e)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return ""
	}
	return t.Name()
}

// pkgPath returns the import path of the package that defines e's type.
func pkgPath(e any) string {
	t := reflect.TypeOf(e)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return ""
	}
	return t.PkgPath()
}

// stringMethod calls e's method name when it takes nothing and returns a
// value of a string kind (anthropic-sdk-go's Type); "" otherwise.
func stringMethod(e any, name string) string {
	m := reflect.ValueOf(e).MethodByName(name)
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 || m.Type().Out(0).Kind() != reflect.String {
		return ""
	}
	return m.Call(nil)[0].String()
}
