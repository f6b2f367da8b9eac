package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSimClockStandsStill checks that a wait is added up without passing
// and that the clock's time does not move: neither with a wait nor with
// the real time spent between waits.
func TestSimClockStandsStill(t *testing.T) {
	c := newSimClock()
	start := c.Now()
	require.NoError(t, c.Sleep(context.Background(), 2*time.Second))
	require.NoError(t, c.Sleep(context.Background(), -time.Second))
	time.Sleep(time.Millisecond)
	assert.Equal(t, start, c.Now())
	assert.Equal(t, 2*time.Second, c.Waited())

	done, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, c.Sleep(done, time.Second), context.Canceled)
	assert.Equal(t, 2*time.Second, c.Waited(), "a wait on a done context is not counted")
}

// TestSimLinkTimesOutOnlyHeldBackAnswers sends two requests through
// simLink with a caller deadline that has passed before the carrier
// answers: the answer arrives all the same. A request the server holds
// back after a 102 Processing ends with the caller's deadline, and the
// server's handler sees the caller hang up.
func TestSimLinkTimesOutOnlyHeldBackAnswers(t *testing.T) {
	hungUp := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/held" {
			w.WriteHeader(http.StatusProcessing)
			<-r.Context().Done()
			close(hungUp)
			return
		}
		_, _ = io.WriteString(w, "on time")
	}))
	defer srv.Close()
	loopback := newLoopbackTransport()
	defer loopback.CloseIdleConnections()
	link := simLink{base: loopback}

	send := func(path string) (*http.Response, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
		defer cancel()
		<-ctx.Done() // the caller has given up before the request goes out
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
		require.NoError(t, err)
		return link.RoundTrip(req)
	}

	resp, err := send("/answer")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "on time", string(body))

	resp, err = send("/held")
	assert.Nil(t, resp)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "got %v", err)
	select {
	case <-hungUp:
	case <-time.After(10 * time.Second):
		t.Fatal("the held-back handler did not see the caller hang up")
	}
}
