// Package github84 tests that toolerr reads the errors of go-github v84,
// an older major version still in wide use, as it reads v90's
// (mappers/githuberr): the same table of GitHub's documented error
// responses, replayed to a real v84 client, must give the same errors,
// though no mapper is built against v84 and its client is made with the
// older API (NewClient with an *http.Client, BaseURL set by hand). It is
// a module of its own, so that v84 is linked only into its tests.
package github84
