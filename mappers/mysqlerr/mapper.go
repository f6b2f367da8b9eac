package mysqlerr

import (
	"errors"
	"strconv"

	"github.com/go-sql-driver/mysql"

	"github.com/toolerr/toolerr/classify"
)

// mapper is the MySQL ErrorMapper; it registers its code table.
type mapper struct{}

// Mapper returns the mapper of go-sql-driver/mysql's errors, with its code
// table: add it with classify.WithErrorMappers, or the middleware's and
// mcptool's WithErrorMappers.
func Mapper() classify.ErrorMapper { return mapper{} }

// VendorTables returns the MySQL error number table, registered when the
// mapper is added to a classifier.
func (mapper) VendorTables() map[string]map[string]string {
	return map[string]map[string]string{Vendor: table}
}

// MapError reads the *mysql.MySQLError in err's chain, or the driver's
// mysql.ErrInvalidConn. The server's message is not used: it can hold the
// statement's values (the duplicate key, the value that did not fit), so
// the detail is the code's title and the error number is upstream.code.
// Numbers the table lacks are reported as UPSTREAM_UNCLASSIFIED with their
// number, and to the classifier's observer as unmapped.
func (mapper) MapError(err error) (classify.Outcome, bool) {
	if me, ok := errors.AsType[*mysql.MySQLError](err); ok && me != nil {
		code := strconv.FormatUint(uint64(me.Number), 10)
		return classify.Outcome{Vendor: Vendor, VendorCode: code, UnknownOutcome: unknownOutcome[code]}, true
	}
	if errors.Is(err, mysql.ErrInvalidConn) {
		return classify.Outcome{Vendor: Vendor, VendorCode: invalidConn, UnknownOutcome: true}, true
	}
	return classify.Outcome{}, false
}
