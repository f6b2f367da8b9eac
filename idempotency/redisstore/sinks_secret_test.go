package redisstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
	"github.com/toolerr/toolerr/idempotency/storetest/leaktest"
)

// TestRedisHoldsNoSecretOfAFailure: a tool that fails with secrets,
// behind middleware.New and the idempotency middleware, leaves none in
// any field of any key the store wrote in Redis.
func TestRedisHoldsNoSecretOfAFailure(t *testing.T) {
	addr, _ := redistest.Start(t)
	client := newClient(t, addr)
	prefix := uniquePrefix()
	leaktest.NoSecretStored(t, redisstore.New(client, redisstore.WithKeyPrefix(prefix)), func(t *testing.T) string {
		ctx := context.Background()
		keys, err := client.Keys(ctx, prefix+"*").Result()
		require.NoError(t, err)
		var all strings.Builder
		for _, k := range keys {
			fields, err := client.HGetAll(ctx, k).Result()
			require.NoError(t, err, "key %s", k)
			for f, v := range fields {
				all.WriteString(k + " " + f + " " + v + "\n")
			}
		}
		return all.String()
	})
}
