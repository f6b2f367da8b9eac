package retrygate_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/retrygate"
	"github.com/toolerr/toolerr/toolresult"
)

// A tool server declares a backup for its geocoder; an orchestrator that
// retried the geocoder and gave up reads the backup from Do's error.
func TestFallbackToolsOfDoError(t *testing.T) {
	geocode := middleware.Tool("geocode", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeUpstreamUnavailable, "The geocoding provider is down.")
	})
	srv := httptest.NewServer(middleware.New(middleware.WithFallbacks("geocode",
		toolerr.Fallback{Tool: "geocode_backup", On: []toolerr.Category{toolerr.CategoryTransient, toolerr.CategoryUpstream}}))(geocode))
	t.Cleanup(srv.Close)

	p := retrygate.DefaultPolicy()
	p.InitialInterval, p.MaxInterval = time.Millisecond, time.Millisecond
	calls := 0
	err := retrygate.Do(context.Background(), p, func(ctx context.Context) error {
		calls++
		req, err := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		res, err := toolresult.FromResponse(resp)
		require.NoError(t, err)
		if res.IsError {
			assert.Equal(t, []string{"geocode_backup"}, res.FallbackTools())
			return res.Err
		}
		return nil
	})
	require.Error(t, err)
	assert.Equal(t, 3, calls, "retried first: the fallback is for when retrying does not help")
	var ge *retrygate.Error
	require.True(t, errors.As(err, &ge))
	assert.Equal(t, []string{"geocode_backup"}, retrygate.FallbackTools(err))
	assert.Nil(t, retrygate.FallbackTools(errors.New("plain")))
	assert.Nil(t, retrygate.FallbackTools(nil))
}
