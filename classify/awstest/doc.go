// Package awstest tests classify's smithy mapper against the AWS SDK for
// Go v2's real DynamoDB client, pointed at a loopback server that replays
// DynamoDB's documented error responses (awsJson1_0: a __type with the
// service namespace, X-Amzn-RequestId). It is a module of its own so that
// the SDK stays out of the core module's dependencies: the mapper matches
// the SDK's error methods and imports nothing of it.
package awstest
