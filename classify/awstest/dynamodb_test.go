package awstest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/translate"
)

// dynamoError is one of DynamoDB's documented error responses.
type dynamoError struct {
	status   int
	typ, msg string
}

// replay answers every call with the response named by the table name of
// the request, as DynamoDB writes it.
func replay(t *testing.T, responses map[string]dynamoError) *dynamodb.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ TableName string }
		_ = jsonDecode(r, &body)
		resp, ok := responses[body.TableName]
		if !ok {
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			_, _ = w.Write([]byte(`{}`))
			return
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("X-Amzn-RequestId", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJKL")
		w.WriteHeader(resp.status)
		_, _ = fmt.Fprintf(w, `{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":%q}`, resp.typ, resp.msg)
	}))
	t.Cleanup(srv.Close)
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  aws.AnonymousCredentials{},
		Retryer:      aws.NopRetryer{}, // one attempt: the service's retrygate decides
	})
}

var responses = map[string]dynamoError{
	"throttled": {400, "ProvisionedThroughputExceededException",
		"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."},
	"missing":    {400, "ResourceNotFoundException", "Requested resource not found: Table: missing not found"},
	"invalid":    {400, "ValidationException", "One or more parameter values were invalid: Missing the key id in the item"},
	"condition":  {400, "ConditionalCheckFailedException", "The conditional request failed"},
	"internal":   {500, "InternalServerError", "Internal server error"},
	"throttling": {400, "ThrottlingException", "Rate of requests exceeds the allowed throughput."},
}

func TestDynamoDBErrorsFromTheRealClient(t *testing.T) {
	client := replay(t, responses)
	c := classify.New(nil)
	_, err := translate.NewSet(c) // the AWS code table, as the middleware's classifier has it
	require.NoError(t, err)
	ctx := context.Background()
	get := func(table string) *toolerr.Error {
		t.Helper()
		_, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table),
			Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "1"}}})
		require.Error(t, err)
		e, ok := c.HandlerError(ctx, fmt.Errorf("load: %w", err), http.MethodPost, false)
		require.True(t, ok, "%v", err)
		require.NotNil(t, e.Upstream)
		assert.Equal(t, classify.VendorAWS, e.Upstream.Vendor)
		return e
	}

	e := get("throttled")
	assert.Equal(t, toolerr.CodeRateLimited, e.Code, "a 400 the AWS table reads as a throttle")
	assert.True(t, e.Retryable)
	assert.Equal(t, "ProvisionedThroughputExceededException", e.Upstream.Code, "the namespace is stripped")
	assert.Equal(t, 400, e.Upstream.Status)
	assert.Equal(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJKL", e.Upstream.RequestID)

	assert.Equal(t, toolerr.CodeRateLimited, get("throttling").Code)
	assert.Equal(t, toolerr.CodeNotFound, get("missing").Code)
	e = get("invalid")
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.Contains(t, e.Detail, "Missing the key id", "the vendor's message, through the message filter")
	assert.Equal(t, toolerr.CodePreconditionFailed, get("condition").Code)
	e = get("internal")
	assert.Equal(t, 500, e.Upstream.Status)
}

// TestDynamoDBThrottleThroughTheMiddleware: a tool returns the SDK's error
// as it got it; the agent is told to wait, not "our bug, escalate".
func TestDynamoDBThrottleThroughTheMiddleware(t *testing.T) {
	client := replay(t, responses)
	h := middleware.New()(middleware.Tool("get_order", func(w http.ResponseWriter, r *http.Request) error {
		_, err := client.GetItem(r.Context(), &dynamodb.GetItemInput{TableName: aws.String("throttled"),
			Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "1"}}})
		return err
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/tools/get_order", nil))
	e, err := toolerr.Parse(rec.Body.Bytes())
	require.NoError(t, err, rec.Body.String())
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, http.StatusTooManyRequests, rec.Code)
}
