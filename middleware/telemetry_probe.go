package middleware

import (
	"reflect"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// globalTracerPkg is the package of the tracer provider otel returns
// before an SDK is installed: it delegates to the SDK set later, and until
// then starts spans that record nothing.
const globalTracerPkg = "go.opentelemetry.io/otel/internal/global"

// tracingProbe returns a function reporting whether a span started with
// tp could record, so that an error in a service with no SDK starts no
// span and allocates nothing for one: false for a no-op provider, and for
// otel's global provider as long as no SDK has been installed behind it
// (otel.SetTracerProvider replaces what otel.GetTracerProvider returns);
// true otherwise.
func tracingProbe(tp trace.TracerProvider) func() bool {
	if _, ok := tp.(tracenoop.TracerProvider); ok {
		return func() bool { return false }
	}
	if t := reflect.TypeOf(tp); t.Kind() == reflect.Pointer && t.Elem().PkgPath() == globalTracerPkg {
		return func() bool { return otel.GetTracerProvider() != tp }
	}
	return func() bool { return true }
}
