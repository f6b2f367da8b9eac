package fallbackdecl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

var backup = toolerr.Fallback{Tool: "backup", On: []toolerr.Category{toolerr.CategoryTransient}}

func TestDeclareExtendsTheSealedDefault(t *testing.T) {
	reg, err := Declare(toolerr.Default(), Decl{Tool: "geocode", Fallbacks: []toolerr.Fallback{backup}})
	require.NoError(t, err)
	assert.NotSame(t, toolerr.Default(), reg)
	assert.Equal(t, []toolerr.Fallback{backup}, reg.Fallbacks("geocode"))
	assert.Nil(t, toolerr.Default().Fallbacks("geocode"))
	_, known := reg.Lookup(toolerr.CodeNotFound)
	assert.True(t, known, "the new registry extends the default")
}

func TestDeclareKeepsAServiceRegistry(t *testing.T) {
	own := toolerr.NewRegistry(toolerr.Default())
	reg, err := Declare(own, Decl{Tool: "geocode", Fallbacks: []toolerr.Fallback{backup}})
	require.NoError(t, err)
	assert.Same(t, own, reg)
	assert.Equal(t, []toolerr.Fallback{backup}, own.Fallbacks("geocode"))

	reg, err = Declare(own, Decl{Tool: "route", Fallbacks: []toolerr.Fallback{{Tool: "route"}}})
	require.Error(t, err)
	assert.Same(t, own, reg)
	assert.Nil(t, own.Fallbacks("route"))
}
