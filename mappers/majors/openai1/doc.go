// Package openai1 tests that toolerr reads the errors of openai-go v1 as
// it reads v3's (mappers/openaierr): the same table of OpenAI's documented
// error responses, replayed to a real v1 client, must give the same
// errors with no mapper registered. It is a module of its own, so that
// v1 is linked only into its tests.
package openai1
