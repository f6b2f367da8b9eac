// Package github93 tests that toolerr reads the errors of go-github v93,
// the newest major version, as it reads v90's (mappers/githuberr): the
// same table of GitHub's documented error responses, replayed to a real
// v93 client, must give the same errors, though no mapper is built
// against v93. It is a module of its own, so that v93 is linked only
// into its tests.
package github93
