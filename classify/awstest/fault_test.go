package awstest

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/classify"
)

// TestFaultWithoutAStatus: an API error that carries no HTTP status (an
// event stream's, or one a middleware of the SDK raised) says whose fault
// it is through smithy's ErrorFault, which the mapper reads without
// importing smithy; with a status, the status says it and the fault is
// not read.
func TestFaultWithoutAStatus(t *testing.T) {
	c := classify.New(nil)
	ctx := context.Background()
	for fault, want := range map[smithy.ErrorFault]string{smithy.FaultServer: "server", smithy.FaultClient: "client"} {
		err := fmt.Errorf("stream: %w", &smithy.GenericAPIError{Code: "ModelStreamErrorException", Message: "stream broke", Fault: fault})
		e, ok := c.HandlerError(ctx, err, http.MethodPost, false)
		require.True(t, ok)
		assert.Equal(t, want, e.Details["fault"])
		assert.Equal(t, "ModelStreamErrorException", e.Upstream.Code)
	}
	e, _ := c.HandlerError(ctx, &smithy.GenericAPIError{Code: "X", Fault: smithy.FaultUnknown}, http.MethodPost, false)
	assert.NotContains(t, e.Details, "fault", "an unknown fault says nothing")
}
