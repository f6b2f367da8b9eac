package redisstore

import "github.com/redis/go-redis/v9"

// A record is one Redis hash at prefix+key. Its fields:
//
//	st      state: "1" InFlight, "2" Completed; absent in a tombstone
//	tok     fencing token of the claim that wrote the record (decimal)
//	fp      fingerprint of the claiming request
//	lu      lease end of an InFlight record, µs since the Unix epoch (server clock)
//	ca      creation time, µs since the Unix epoch (server clock)
//	status  HTTP status of a Completed record (decimal)
//	hdr     allow-listed headers of a Completed record, JSON; "" for none
//	body    body of a Completed record, raw bytes
//
// A tombstone is a hash with only tok: what Release leaves behind so that
// the key's next token is still greater than the released one. It expires
// when the released claim's record would have.
//
// Every script reads the clock with TIME, so leases are measured by the
// Redis server's clock only, never by the clocks of the replicas that call
// it. A script that calls TIME and then writes needs effects replication:
// the default since Redis 5, enabled explicitly for older servers.

// Positions of the fields in the replies of the claim script (after its
// flag) and of the get script, which both read a record with
// HMGET st tok fp lu ca status hdr body.
const (
	fState = iota
	fToken
	fFingerprint
	fLeaseUntil
	fCreatedAt
	fStatus
	fHeader
	fBody
	nFields
)

// prelude starts every script: effects replication (for Redis < 5), the
// server time in µs, and a formatter for integers beyond 2^31 (Lua's
// tostring would print 1.7e+15).
const prelude = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local function int(n) return string.format('%.0f', n) end
`

// claimScript claims KEYS[1] for fingerprint ARGV[1], with a lease of
// ARGV[2] µs and a key TTL of ARGV[3] ms (lease plus grace).
//
// A live record (Completed, or InFlight within its lease) is returned as
// {0, fields...}. Otherwise (no record, a tombstone, or a lapsed InFlight
// record) the script writes an InFlight record and returns {1, token}. The
// token is the previous token + 1 when the key still has one (a lapsed claim
// or a tombstone), else the server time in µs: greater than any token issued
// for the key before its record expired, as long as the server clock does
// not go back. A lapsed claim's creation time is kept.
var claimScript = redis.NewScript(prelude + `
local r = redis.call('HMGET', KEYS[1], 'st', 'tok', 'fp', 'lu', 'ca', 'status', 'hdr', 'body')
local st = r[1]
if st == '2' or (st == '1' and (tonumber(r[4]) or 0) > now) then
  return {0, r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]}
end
local tok = now
if r[2] then tok = tonumber(r[2]) + 1 end
local ca = r[5]
if st ~= '1' or not ca then ca = int(now) end
tok = int(tok)
redis.call('HSET', KEYS[1], 'st', '1', 'tok', tok, 'fp', ARGV[1], 'lu', int(now + tonumber(ARGV[2])), 'ca', ca)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, tok}
`)

// completeScript completes KEYS[1] if token ARGV[1] holds its InFlight
// claim: it stores status ARGV[2], headers ARGV[3] and body ARGV[4], and
// keeps the record for ARGV[5] ms. It returns 1, or 0 when the claim is
// lost.
var completeScript = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'st', 'tok')
if r[1] ~= '1' or r[2] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'st', '2', 'status', ARGV[2], 'hdr', ARGV[3], 'body', ARGV[4])
redis.call('HDEL', KEYS[1], 'lu')
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`)

// releaseScript turns KEYS[1] into a tombstone if token ARGV[1] holds its
// InFlight claim, keeping the token and the TTL. It returns 1, or 0 when
// the claim is lost.
var releaseScript = redis.NewScript(`
local r = redis.call('HMGET', KEYS[1], 'st', 'tok')
if r[1] ~= '1' or r[2] ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 'st', 'fp', 'lu', 'ca')
return 1
`)

// getScript returns the fields of KEYS[1], or nil when it has no live
// record: none, a tombstone, or an InFlight record whose lease lapsed (as
// Claim would take it over). It only reads.
var getScript = redis.NewScript(prelude + `
local r = redis.call('HMGET', KEYS[1], 'st', 'tok', 'fp', 'lu', 'ca', 'status', 'hdr', 'body')
local st = r[1]
if st == '2' or (st == '1' and (tonumber(r[4]) or 0) > now) then return r end
return false
`)
