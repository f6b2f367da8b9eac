package redistest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStartParallel starts servers from parallel tests: each answers as
// its own process until stopped, and stop may be called twice.
func TestStartParallel(t *testing.T) {
	for range 8 {
		t.Run("server", func(t *testing.T) {
			t.Parallel()
			addr, stop := Start(t)
			require.NoError(t, ping(addr, 0))
			stop()
			stop()
			assert.Error(t, ping(addr, 0), "a stopped server does not answer")
		})
	}
}

// TestWrongServer: a server answering on the address as another process
// is not taken for the one started.
func TestWrongServer(t *testing.T) {
	addr, _ := Start(t)
	assert.NoError(t, ping(addr, 0))
	assert.ErrorContains(t, ping(addr, 1), "another server")
}

// childEnv marks the child process of TestMissingBinary.
const childEnv = "REDISTEST_MISSING_BINARY_CHILD"

// TestMissingBinary: without redis-server on PATH, Start skips, except
// with CI=true where it fails.
func TestMissingBinary(t *testing.T) {
	if os.Getenv(childEnv) == "1" {
		Start(t)
		t.Fatal("Start returned without a server")
	}
	tests := []struct {
		name     string
		ci       string
		wantFail bool
		wantOut  string
	}{
		{"skips locally", "", false, "--- SKIP"},
		{"skips when CI is not true", "false", false, "--- SKIP"},
		{"fails on CI", "true", true, "CI=true forbids skipping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestMissingBinary$", "-test.v")
			cmd.Env = append(os.Environ(), childEnv+"=1", "PATH="+t.TempDir(), "CI="+tt.ci)
			out, err := cmd.CombinedOutput()
			assert.Equal(t, tt.wantFail, err != nil, "exit: %v\n%s", err, out)
			assert.Contains(t, string(out), tt.wantOut)
		})
	}
}

// TestStartReplica: once StartReplica returns, the replica is linked to
// its primary, and InfoField reads its role.
func TestStartReplica(t *testing.T) {
	primary, _ := Start(t)
	replica, proc := StartReplica(t, primary)
	require.NotNil(t, proc)
	AwaitInfo(t, primary, "replication", "connected_slaves:1")
	role, err := InfoField(replica, "replication", "role")
	require.NoError(t, err)
	assert.Equal(t, "slave", role)
	_, err = InfoField(replica, "replication", "no_such_field")
	assert.Error(t, err)
}
