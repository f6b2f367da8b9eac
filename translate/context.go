package translate

import (
	"context"
	"net/http"
)

// contextOf returns the context of the request resp answers, or Background.
func contextOf(resp *http.Response) context.Context {
	if resp.Request != nil {
		return resp.Request.Context()
	}
	return context.Background()
}
