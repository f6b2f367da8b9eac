package toolerrgin

import (
	"strings"

	"github.com/go-playground/validator/v10"
)

// Cross-field tags (eqfield=Password, gtfield=Start) name another field
// by its Go name: the reason names it as the client does, by its json
// name when the argument type is known, else as "another argument".

// crossField reports whether tag compares the field with another one.
func crossField(tag string) bool {
	return strings.HasSuffix(tag, "field") && tag != "field"
}

// describeCrossField words a failed comparison with another field.
func describeCrossField(f *finding, fe validator.FieldError, args *boundArgs) {
	other := siblingName(args, fe.StructNamespace(), fe.Param())
	var rel string
	switch strings.TrimSuffix(strings.TrimSuffix(fe.Tag(), "field"), "cs") {
	case "eq":
		rel = "must equal"
	case "ne":
		rel = "must differ from"
	case "gt":
		rel = "must be greater than"
	case "gte":
		rel = "must be at least"
	case "lt":
		rel = "must be less than"
	case "lte":
		rel = "must be at most"
	default:
		rel = "does not fit"
	}
	f.reason = rel + " " + other
	f.fix = "correct " + displayName(f.field) + " or " + other
}

// siblingName names the field goName of the struct that holds the field
// at structNamespace, by its JSON pointer's name; "another argument" when
// it cannot be resolved. A cross-struct name ("Inner.Start", of the cs
// tags) is taken from the root.
func siblingName(args *boundArgs, structNamespace, goName string) string {
	t := args.rootType()
	if t == nil || goName == "" {
		return "another argument"
	}
	ns := ""
	if i := strings.LastIndexByte(structNamespace, '.'); i >= 0 {
		ns = structNamespace[:i+1]
	}
	if strings.Contains(goName, ".") {
		ns = deref(t).Name() + "."
	}
	p, _, ok := resolve(t, parseNamespace(ns+goName))
	if !ok {
		return "another argument"
	}
	return displayName(p)
}
