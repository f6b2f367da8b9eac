package awstest

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/retrygate"
)

// TestDoRetriesTheSDKsThrottle: retrygate.Do with its default policy, given
// the SDK's error as the client returns it, retries a DynamoDB throttle
// (a 400 only the AWS code table reads as a rate limit) and not a
// validation error, for an operation that is not idempotent.
func TestDoRetriesTheSDKsThrottle(t *testing.T) {
	client := replay(t, responses)
	p := retrygate.DefaultPolicy()
	p.InitialInterval = time.Millisecond
	p.MaxServerDelay = 10 * time.Millisecond // RATE_LIMITED advises a second; the cap keeps the test short
	run := func(table string) int {
		n := 0
		err := retrygate.Do(context.Background(), p, func(ctx context.Context) error {
			n++
			_, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table),
				Item: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "1"}}})
			return err
		})
		require.Error(t, err, table)
		return n
	}
	assert.Equal(t, 3, run("throttled"), "nothing ran: the throttle is retried")
	assert.Equal(t, 1, run("invalid"))
	assert.Equal(t, 1, run("condition"))
}
