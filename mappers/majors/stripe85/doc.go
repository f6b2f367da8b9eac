// Package stripe85 tests that toolerr reads the errors of stripe-go v85,
// the newest major version, as it reads v82's (mappers/stripeerr): the
// same table of Stripe's documented error responses, replayed to a real
// v85 client, must give the same errors. It is a module of its own, so
// that v85 is linked only into its tests.
package stripe85
