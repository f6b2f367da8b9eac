package awstest

import (
	"encoding/json"
	"io"
	"net/http"
)

// jsonDecode reads a request's JSON body into v.
func jsonDecode(r *http.Request, v any) error {
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
