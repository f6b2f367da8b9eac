// Package fallbackdecl declares the fallbacks an adapter's WithFallbacks
// options name, for the HTTP middleware and the MCP adapters alike.
package fallbackdecl

import (
	"errors"
	"log/slog"

	"github.com/toolerr/toolerr"
)

// Decl is one WithFallbacks option: a tool and its fallbacks. An MCP
// adapter's option for the tool it registers leaves Tool empty.
type Decl struct {
	Tool      string
	Fallbacks []toolerr.Fallback
}

// Declare declares d in reg and returns the registry that holds it: reg,
// or, when reg is sealed (toolerr.Default, shared by the process), a new
// registry that extends it, which the adapter then uses in its place.
// A declaration reg rejects declares nothing; its error is returned with
// reg for the adapter to log.
func Declare(reg *toolerr.Registry, d Decl) (*toolerr.Registry, error) {
	err := reg.DeclareFallbacks(d.Tool, d.Fallbacks...)
	if errors.Is(err, toolerr.ErrSealed) {
		reg = toolerr.NewRegistry(reg)
		err = reg.DeclareFallbacks(d.Tool, d.Fallbacks...)
	}
	return reg, err
}

// DeclareAll declares every decl of an adapter's options with [Declare]
// and returns the registry that holds them. A rejected declaration is
// logged as a warning, with msg as the message, and declares nothing.
func DeclareAll(reg *toolerr.Registry, decls []Decl, logger *slog.Logger, msg string) *toolerr.Registry {
	for _, d := range decls {
		var err error
		if reg, err = Declare(reg, d); err != nil {
			logger.Warn(msg, slog.Any("error", err))
		}
	}
	return reg
}
