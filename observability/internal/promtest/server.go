package promtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Server is a prometheus server started for a test.
type Server struct {
	// URL is the server's base URL on loopback.
	URL    string
	client *http.Client
}

// startAttempts is how many free ports Start tries: another process may
// take the port between finding it and prometheus binding it.
const startAttempts = 3

// readyWithin bounds the wait for a started server to answer /-/ready.
const readyWithin = 20 * time.Second

// Start runs prometheus with the configuration config (YAML; relative
// paths in it are relative to dir, where Start writes it), a storage
// directory of its own, on a free loopback port, and waits until it is
// ready. The server is killed when the test ends.
func Start(t testing.TB, dir string, config []byte) *Server {
	t.Helper()
	bin := Binary(t, "prometheus")
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, config, 0o644); err != nil {
		t.Fatalf("promtest: %v", err)
	}
	var errs []error
	for range startAttempts {
		s, err := start(t, bin, dir, cfg)
		if err == nil {
			return s
		}
		errs = append(errs, err)
	}
	t.Fatalf("promtest: prometheus did not start: %v", errors.Join(errs...))
	return nil
}

// start makes one attempt at starting the server.
func start(t testing.TB, bin, dir, cfg string) (*Server, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	storage, err := os.MkdirTemp(dir, "tsdb-")
	if err != nil {
		return nil, err
	}
	var logs bytes.Buffer
	cmd := exec.Command(bin,
		"--config.file="+cfg,
		"--storage.tsdb.path="+storage,
		"--web.listen-address="+addr,
		"--log.level=warn",
	)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	s := &Server{URL: "http://" + addr, client: &http.Client{Timeout: 5 * time.Second}}
	deadline := time.Now().Add(readyWithin)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return nil, fmt.Errorf("prometheus exited: %s", logs.String())
		case <-time.After(100 * time.Millisecond):
		}
		resp, err := s.client.Get(s.URL + "/-/ready")
		if err != nil {
			continue
		}
		_ = resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Cleanup(func() {
				stop()
				if t.Failed() {
					t.Logf("prometheus log:\n%s", logs.String())
				}
			})
			return s, nil
		}
	}
	stop()
	return nil, fmt.Errorf("prometheus not ready within %s: %s", readyWithin, logs.String())
}

// FreePort returns a TCP port free on 127.0.0.1 when it was asked.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Series is one element of a query's vector result.
type Series struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// Query runs an instant query and returns its vector result; a query
// Prometheus rejects (it does not parse) is an error.
func (s *Server) Query(ctx context.Context, expr string) ([]Series, error) {
	var data struct {
		ResultType string   `json:"resultType"`
		Result     []Series `json:"result"`
	}
	if err := s.get(ctx, "/api/v1/query?query="+url.QueryEscape(expr), &data); err != nil {
		return nil, fmt.Errorf("query %s: %w", expr, err)
	}
	if data.ResultType != "vector" {
		return nil, fmt.Errorf("query %s: result type %q, want vector", expr, data.ResultType)
	}
	return data.Result, nil
}

// Alert is one alert of /api/v1/alerts.
type Alert struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	State       string            `json:"state"` // pending or firing
}

// Alerts returns the active alerts.
func (s *Server) Alerts(ctx context.Context) ([]Alert, error) {
	var data struct {
		Alerts []Alert `json:"alerts"`
	}
	if err := s.get(ctx, "/api/v1/alerts", &data); err != nil {
		return nil, err
	}
	return data.Alerts, nil
}

// get calls the HTTP API and decodes the data of a success into v.
func (s *Server) get(ctx context.Context, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+path, nil)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	var env struct {
		Status string          `json:"status"`
		Data   json.RawMessage `json:"data"`
		Error  string          `json:"error"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return fmt.Errorf("status %d: %w", resp.StatusCode, err)
	}
	if env.Status != "success" {
		return fmt.Errorf("status %d: %s", resp.StatusCode, env.Error)
	}
	return json.Unmarshal(env.Data, v)
}
