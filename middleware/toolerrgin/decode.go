package toolerrgin

import (
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// A JSON body binding could not decode (gin's JSON binding decodes with
// encoding/json, unless built with another codec): VALIDATION_FAILED as
// argcheck.DecodeError says it, at the value's field when the decoder
// names it.

// decodeFailure reports whether err is a JSON decoder's failure.
func decodeFailure(err error) bool {
	_, ok := argcheck.DecodeError(nil, err)
	return ok
}

// decodeError is the VALIDATION_FAILED of a JSON decoder's failure, nil
// for any other error.
func decodeError(err error) *toolerr.Error {
	e, _ := argcheck.DecodeError(nil, err)
	return e
}
