package classify

import (
	"errors"
	"strings"

	"github.com/toolerr/toolerr"
)

// VendorRedis is the vendor name of Redis server errors.
const VendorRedis = "redis"

// redisError is go-redis's redis.Error (a reply the server sent as an
// error), matched without importing go-redis.
type redisError interface {
	error
	RedisError()
}

// redisTable maps the error prefix of a Redis reply to toolerr codes. The
// prefixes are Redis's own (its error replies begin with an upper-case
// word); each row says why.
var redisTable = map[string]string{
	// LOADING: the server is loading its dataset after a restart; the
	// command was not run.
	"LOADING": toolerr.CodeUpstreamUnavailable,
	// BUSY: a script or function has run past busy-reply-threshold; the
	// command was not run.
	"BUSY": toolerr.CodeUpstreamUnavailable,
	// TRYAGAIN: a multi-key command during resharding; Redis Cluster says
	// to retry it.
	"TRYAGAIN": toolerr.CodeUpstreamUnavailable,
	// CLUSTERDOWN: the cluster cannot serve the slot now.
	"CLUSTERDOWN": toolerr.CodeUpstreamUnavailable,
	// MASTERDOWN: a replica lost its master and serves no stale reads.
	"MASTERDOWN": toolerr.CodeUpstreamUnavailable,
	// READONLY: a write reached a replica (during a failover).
	"READONLY": toolerr.CodeUpstreamUnavailable,
	// OOM: maxmemory reached under noeviction; the write was refused.
	"OOM": toolerr.CodeUpstreamUnavailable,
	// NOAUTH, WRONGPASS, NOPERM: the service's credentials or ACL.
	"NOAUTH":    toolerr.CodeUpstreamMisconfigured,
	"WRONGPASS": toolerr.CodeUpstreamMisconfigured,
	"NOPERM":    toolerr.CodeUpstreamMisconfigured,
	// WRONGTYPE: the service used a key as the wrong type: its own bug.
	"WRONGTYPE": toolerr.CodeInternal,
}

// RedisMapper returns the mapper of Redis server error replies (go-redis's
// redis.Error, matched by its RedisError method): a server loading,
// busy with a script, resharding, without a master, read-only during a
// failover or out of memory refused the command without running it, so
// any call may be retried (UPSTREAM_UNAVAILABLE); a refused password or
// ACL is UPSTREAM_MISCONFIGURED; WRONGTYPE is the service's own bug. The
// reply's text is not used (it can hold keys). redis.Nil, "no such key",
// is not an error of the server: it is left alone, for the handler to
// decide whether a missing key means NOT_FOUND. Every classifier tries it.
func RedisMapper() ErrorMapper {
	return MapperFunc(func(err error) (Outcome, bool) {
		re, ok := errors.AsType[redisError](err)
		if !ok {
			return Outcome{}, false
		}
		msg := re.Error()
		if msg == "redis: nil" {
			return Outcome{}, false
		}
		word, _, _ := strings.Cut(msg, " ")
		if word == "" || strings.ToUpper(word) != word || len(word) > 32 {
			word = "ERR"
		}
		return Outcome{Vendor: VendorRedis, VendorCode: word}, true
	})
}
