package googleerr_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	tasks "google.golang.org/api/tasks/v1"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/mappers/googleerr"
	"github.com/toolerr/toolerr/translate"
)

// replies are Google APIs' documented error responses (Google Cloud API
// design guide, "Errors": the google.rpc.Status JSON form and its error
// details; the legacy errors[] form of the Google API client libraries),
// by the task list the client asks for.
var replies = map[string]struct {
	status int
	body   string
}{
	"bad-request": {400, `{"error":{"code":400,"message":"Invalid value at 'task.due' (type.googleapis.com/google.protobuf.Timestamp), \"tomorrow\"","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"task.due","description":"Invalid value at 'task.due', \"tomorrow\""}]}]}}`},
	"rate":        {429, `{"error":{"code":429,"message":"Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per user' of service 'tasks.googleapis.com' for consumer 'project_number:123456'.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"googleapis.com","metadata":{"quota_metric":"tasks.googleapis.com/default","quota_limit":"defaultPerMinutePerUser","service":"tasks.googleapis.com","consumer":"projects/123456","quota_limit_value":"600"}},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"12s"},{"@type":"type.googleapis.com/google.rpc.Help","links":[{"description":"Request a higher quota limit.","url":"https://cloud.google.com/docs/quotas/help/request_increase"}]}]}}`},
	"disabled":    {403, `{"error":{"code":403,"message":"Google Tasks API has not been used in project 123456 before or it is disabled.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SERVICE_DISABLED","domain":"googleapis.com","metadata":{"service":"tasks.googleapis.com","consumer":"projects/123456","activationUrl":"https://console.developers.google.com/apis/api/tasks.googleapis.com/overview?project=123456"}}]}}`},
	"daily":       {403, `{"error":{"code":403,"message":"Daily Limit Exceeded","errors":[{"message":"Daily Limit Exceeded","domain":"usageLimits","reason":"dailyLimitExceeded"}]}}`},
	"missing":     {404, `{"error":{"code":404,"message":"Requested entity was not found.","errors":[{"message":"Requested entity was not found.","domain":"global","reason":"notFound"}],"status":"NOT_FOUND"}}`},
	"backend":     {500, `{"error":{"code":500,"message":"Backend Error","errors":[{"message":"Backend Error","domain":"global","reason":"backendError"}]}}`},
}

// server replays the documented responses on a loopback port and returns
// a real Tasks client pointed at it, and the count of requests served.
func server(t *testing.T) (*tasks.Service, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		// tasks/v1/users/@me/lists/{list} or tasks/v1/lists/{list}/tasks
		list := ""
		for i, p := range parts {
			if p == "lists" && i+1 < len(parts) {
				list = parts[i+1]
			}
		}
		rp, ok := replies[list]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(rp.status)
		_, _ = w.Write([]byte(rp.body))
	}))
	t.Cleanup(srv.Close)
	svc, err := tasks.NewService(context.Background(),
		option.WithHTTPClient(srv.Client()), option.WithEndpoint(srv.URL+"/"))
	require.NoError(t, err)
	return svc, &hits
}

// classifier is the middleware's: translate's tables registered, the
// mapper added.
func classifier(t *testing.T) *classify.Classifier {
	t.Helper()
	c := classify.New(nil, classify.WithErrorMappers(googleerr.Mapper()))
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	return c
}

func TestErrorsFromTheRealClient(t *testing.T) {
	svc, hits := server(t)
	c, ctx := classifier(t), context.Background()
	check := func(err error, method string) *toolerr.Error {
		t.Helper()
		require.Error(t, err)
		var ge *googleapi.Error
		require.ErrorAs(t, err, &ge)
		e, ok := c.HandlerError(ctx, fmt.Errorf("tasks: %w", err), method, false)
		require.True(t, ok)
		require.NotNil(t, e.Upstream)
		assert.Equal(t, googleerr.Vendor, e.Upstream.Vendor)
		assert.Equal(t, ge.Code, e.Upstream.Status)
		return e
	}
	get := func(list string) error { _, err := svc.Tasklists.Get(list).Context(ctx).Do(); return err }
	insert := func(list string) error {
		_, err := svc.Tasks.Insert(list, &tasks.Task{Title: "file taxes", Due: "tomorrow"}).Context(ctx).Do()
		return err
	}

	e := check(insert("bad-request"), http.MethodPost)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.False(t, e.Retryable)
	assert.Equal(t, "task.due", e.Field, "BadRequest's field violation")
	assert.Equal(t, "INVALID_ARGUMENT", e.Upstream.Code)

	e = check(insert("rate"), http.MethodPost)
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, 12*time.Second, e.RetryAfter, "RetryInfo's delay")
	assert.Equal(t, "RATE_LIMIT_EXCEEDED", e.Upstream.Code, "ErrorInfo's reason")

	e = check(get("disabled"), http.MethodGet)
	assert.Equal(t, toolerr.CodeUpstreamMisconfigured, e.Code)
	assert.Equal(t, "SERVICE_DISABLED", e.Upstream.Code)

	e = check(get("daily"), http.MethodGet)
	assert.Equal(t, toolerr.CodeQuotaExhausted, e.Code, "the legacy reason, by Google's table")
	assert.False(t, e.Retryable)

	e = check(get("missing"), http.MethodGet)
	assert.Equal(t, toolerr.CodeNotFound, e.Code)
	assert.Equal(t, "notFound", e.Upstream.Code)

	e = check(insert("backend"), http.MethodPost)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.False(t, e.Retryable, "backendError may have run: not retried for a POST")
	e = check(get("backend"), http.MethodGet)
	assert.True(t, e.Retryable, "an idempotent call is")

	assert.Equal(t, int64(7), hits.Load(), "one attempt per call")
}

func TestErrorWithoutBody(t *testing.T) {
	c, ctx := classifier(t), context.Background()
	ge := &googleapi.Error{Code: 400, Message: "bad due date", Details: []any{map[string]any{
		"@type":           "type.googleapis.com/google.rpc.BadRequest",
		"fieldViolations": []any{map[string]any{"field": "task.due", "description": "not a date"}},
	}}}
	e, ok := c.HandlerError(ctx, fmt.Errorf("tasks: %w", ge), http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.Equal(t, "task.due", e.Field)

	_, ok = googleerr.Mapper().MapError(fmt.Errorf("plain"))
	assert.False(t, ok)
}
