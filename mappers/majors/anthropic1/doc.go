// Package anthropic1 tests that toolerr reads the errors of
// anthropic-sdk-go v1, the older major version still in wide use, as it
// reads v2's (mappers/anthropicerr): the same table of Anthropic's
// documented error responses, replayed to a real v1 client, must give the
// same errors with no mapper registered. It is a module of its own, so
// that v1 is linked only into its tests.
package anthropic1
