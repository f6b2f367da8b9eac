package sanitize

import "testing"

// TestSingleLabelHosts: the one-label host of a network URL is internal;
// buckets, other schemes, dotted names, numbers and userinfo are not hosts
// to redact.
func TestSingleLabelHosts(t *testing.T) {
	checkCleanCases(t, []cleanCase{
		{"compose service", `Get "http://payments-api:8080/v1/charge": EOF`, `Get "http://[internal-host]:8080/v1/charge": EOF`},
		{"no port", `Post "http://orders-svc/api": EOF`, `Post "http://[internal-host]/api": EOF`},
		{"jdbc", `jdbc:postgresql://pg-primary:5432/app`, `jdbc:postgresql://[internal-host]:5432/app`},
		{"gcp metadata", `Get http://metadata/computeMetadata/v1/x`, `Get http://[internal-host]/computeMetadata/v1/x`},
		{"upper-case scheme", `HTTP://Orders-Svc/api`, `HTTP://[internal-host]/api`},
		{"after userinfo", `amqp://guest:guest@rabbit/`, `amqp://guest:[REDACTED:dsn-password]@[internal-host]/`},
		{"after a redacted password", `redis://:Xk29vLp0qZ@cache:6379/0`, `redis://:[REDACTED:dsn-password]@[internal-host]:6379/0`},
		{"bucket", `s3://my-bucket/key and gs://logs/x`, `s3://my-bucket/key and gs://logs/x`},
		{"public host", `https://example.com/x and https://api.stripe.com`, `https://example.com/x and https://api.stripe.com`},
		{"file", `file:///etc/hosts`, `file:///etc/hosts`},
		{"not a scheme", `urn:x://y`, `urn:x://y`},
		{"metadata as one number", `GET http://2852039166/latest/meta-data/`, `GET http://[private-ip]/latest/meta-data/`},
		{"metadata in hex", `GET http://0xA9FEA9FE/latest/meta-data/`, `GET http://[private-ip]/latest/meta-data/`},
		{"public address as one number", `GET http://134744072/`, `GET http://134744072/`},
		{"a port alone", `http://8080/`, `http://8080/`},
	})
}
