package toolerrhuma

import (
	"log/slog"

	"github.com/danielgtaylor/huma/v2"
)

// Reach: only operations registered on the API Install returns get its
// transformer, which binds the errors a handler built without a context
// (huma.Error404NotFound and friends) to their request. An operation
// registered on the API passed to Install, or before Install, works, but
// such an error of it renders with no request id of its own when no
// toolerr middleware serves the request. The returned API marks the
// operations it documents, and the installation warns once per operation
// registered out of its reach, so that the mistake shows at startup.

// reached marks op as registered through the returned API.
func (in *installation) reached(op *huma.Operation) {
	in.reach.Store(op, struct{}{})
}

// checkReach warns when op was registered out of the returned API's reach.
func (in *installation) checkReach(op *huma.Operation, when string) {
	if _, ok := in.reach.Load(op); ok || op.Hidden {
		return
	}
	slog.Warn("toolerrhuma: operation registered "+when+
		"; register it on the API toolerrhuma.Install returns, so that the errors its handler builds with huma.NewError carry the request's id without the toolerr middleware",
		"operation", op.OperationID, "method", op.Method, "path", op.Path)
}
