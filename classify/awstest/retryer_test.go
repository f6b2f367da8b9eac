package awstest

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// sdkCases are error responses whose retryability the SDK's standard
// retryer decides: its throttle codes, its transient codes, the 5xx
// statuses it retries, and codes it does not retry.
var sdkCases = map[string]dynamoError{
	"Throttling":                             {400, "Throttling", "Rate exceeded"},
	"ThrottlingException":                    {400, "ThrottlingException", "Rate exceeded"},
	"ThrottledException":                     {400, "ThrottledException", "Rate exceeded"},
	"RequestThrottledException":              {400, "RequestThrottledException", "Rate exceeded"},
	"TooManyRequestsException":               {429, "TooManyRequestsException", "Too many requests"},
	"ProvisionedThroughputExceededException": {400, "ProvisionedThroughputExceededException", "Throughput exceeded"},
	"TransactionInProgressException":         {400, "TransactionInProgressException", "The transaction with the given request token is already in progress."},
	"RequestLimitExceeded":                   {503, "RequestLimitExceeded", "Request limit exceeded."},
	"BandwidthLimitExceeded":                 {400, "BandwidthLimitExceeded", "Bandwidth limit exceeded"},
	"LimitExceededException":                 {400, "LimitExceededException", "Limit Exceeded"},
	"RequestThrottled":                       {400, "RequestThrottled", "Request is throttled."},
	"SlowDown":                               {503, "SlowDown", "Please reduce your request rate."},
	"PriorRequestNotComplete":                {400, "PriorRequestNotComplete", "The request was rejected because Route 53 was still processing a prior request."},
	"RequestTimeout":                         {400, "RequestTimeout", "Your socket connection to the server was not read from or written to within the timeout period."},
	"RequestTimeoutException":                {408, "RequestTimeoutException", "Request timed out"},
	"InternalServerError":                    {500, "InternalServerError", "Internal server error"},
	"ServiceUnavailable":                     {503, "ServiceUnavailable", "Service unavailable"},
	"unknown 500":                            {500, "SomethingNewException", "Something broke"},
	"unknown 502":                            {502, "BadGatewayException", "Bad gateway"},
	"unknown 504":                            {504, "GatewayTimeoutException", "Gateway timeout"},
	"ValidationException":                    {400, "ValidationException", "One or more parameter values were invalid"},
	"ResourceNotFoundException":              {400, "ResourceNotFoundException", "Requested resource not found"},
	"ConditionalCheckFailedException":        {400, "ConditionalCheckFailedException", "The conditional request failed"},
	"AccessDeniedException":                  {400, "AccessDeniedException", "User is not authorized"},
	"ServiceQuotaExceededException":          {402, "ServiceQuotaExceededException", "Quota exceeded"},
	"unknown 400":                            {400, "SomethingWrongException", "Bad"},
}

// deliberateDifferences are the cases where toolerr's answer departs from
// aws-sdk-go-v2's standard retryer, and why.
var deliberateDifferences = map[string]string{
	// API Gateway sends it for a usage plan's period quota, Cognito and
	// IAM for resource counts: it fails the same way until the period
	// ends or the count drops. The JS SDK v3 no longer retries it.
	"LimitExceededException": "QUOTA_EXHAUSTED: a period or count limit",
}

// TestRetryableAgreesWithTheSDKsRetryer: for an idempotent call, toolerr
// retries exactly what aws-sdk-go-v2's standard retryer retries, but for
// the listed deliberate differences; the errors are the real client's.
func TestRetryableAgreesWithTheSDKsRetryer(t *testing.T) {
	client := replay(t, sdkCases)
	c := classify.New(nil)
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	sdk := retry.NewStandard()
	ctx := context.Background()
	agree := 0
	for name := range sdkCases {
		_, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(name),
			Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "1"}}})
		require.Error(t, err, name)
		e, ok := c.HandlerError(ctx, fmt.Errorf("load: %w", err), http.MethodGet, false)
		require.True(t, ok, name)
		want := sdk.IsErrorRetryable(err)
		if why, differs := deliberateDifferences[name]; differs {
			assert.NotEqual(t, want, e.Retryable, "%s is listed as a difference (%s) but agrees", name, why)
			continue
		}
		if assert.Equal(t, want, e.Retryable, "%s: the SDK's retryer says %v, toolerr %s", name, want, e.Code) {
			agree++
		}
	}
	t.Logf("agree with aws-sdk-go-v2's retryer on %d of %d error responses; %d deliberate differences", agree, len(sdkCases), len(deliberateDifferences))

	// A call that may not be repeated keeps its unknown 5xx to itself:
	// the SDK retries those for any operation, toolerr only when the
	// tool's call is idempotent.
	_, err = client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("unknown 500"),
		Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "1"}}})
	e, _ := c.HandlerError(ctx, err, http.MethodPost, false)
	assert.False(t, e.Retryable)
}
