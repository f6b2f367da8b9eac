package toolerrgin

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/gin-gonic/gin/binding"
	"github.com/go-playground/validator/v10"
)

// Validator decorates gin's struct validator so that every binding call
// (c.Bind, c.ShouldBindJSON, c.ShouldBind…) tells the adapter what it
// validated, as [ShouldBindJSON] does for one call: violations then point
// at the json names of the fields, know each field's other rules, and can
// carry an example_request. Install it once, at setup, where gin's docs
// replace the validator:
//
//	binding.Validator = toolerrgin.Validator(binding.Validator)
//
// The decorated validator validates exactly as inner does and returns the
// same error types (validator.ValidationErrors, binding.SliceValidationError,
// with the same messages): each validator.FieldError also carries the value
// it belongs to. Engine returns inner's engine. It is safe for concurrent
// use when inner is. A nil inner is returned as nil.
func Validator(inner binding.StructValidator) binding.StructValidator {
	if inner == nil {
		return nil
	}
	if _, ok := inner.(structValidator); ok {
		return inner // decorated already
	}
	return structValidator{inner}
}

// structValidator is the decoration of Validator.
type structValidator struct {
	inner binding.StructValidator
}

// ValidateStruct validates obj with the inner validator and marks its
// field errors with obj.
func (v structValidator) ValidateStruct(obj any) error {
	err := v.inner.ValidateStruct(obj)
	if err == nil {
		return nil
	}
	val := reflect.ValueOf(obj)
	if val.Kind() != reflect.Pointer || val.IsNil() {
		return err // a value, not what binding passes: nothing to point into
	}
	args := &boundArgs{ptr: val}
	var ve validator.ValidationErrors
	if errors.As(err, &ve) && reflect.TypeOf(err) == reflect.TypeOf(ve) {
		return markFields(ve, args, "")
	}
	var se binding.SliceValidationError
	if errors.As(err, &se) && reflect.TypeOf(err) == reflect.TypeOf(se) {
		failing := args.failingElements(v.inner)
		if len(failing) != countValidation(se) {
			return err
		}
		out := make(binding.SliceValidationError, len(se))
		k := 0
		for i, e := range se {
			out[i] = e
			if ve, ok := e.(validator.ValidationErrors); ok {
				out[i] = markFields(ve, args.element(failing[k]), fmt.Sprintf("/%d", failing[k]))
				k++
			}
		}
		return out
	}
	return err
}

// Engine returns the inner validator's engine.
func (v structValidator) Engine() any { return v.inner.Engine() }

// boundField is a validator.FieldError that knows the value it belongs
// to: the arguments bound, and its pointer's prefix in them (a slice
// element's "/3").
type boundField struct {
	validator.FieldError
	args   *boundArgs
	prefix string
}

// markFields returns ve with each field error marked with args.
func markFields(ve validator.ValidationErrors, args *boundArgs, prefix string) validator.ValidationErrors {
	out := make(validator.ValidationErrors, len(ve))
	for i, fe := range ve {
		out[i] = boundField{FieldError: fe, args: args, prefix: prefix}
	}
	return out
}
