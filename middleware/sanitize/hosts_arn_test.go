package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestARNAccountAndPrincipal checks that AWS account ids and principal
// names are masked in ARNs of every partition and under a clear label in
// AWS text, keeping the partition, service, region and resource type.
// Issue 27 §3.5.
func TestARNAccountAndPrincipal(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"iam user in AccessDenied",
			"User: arn:aws:iam::123456789012:user/alice is not authorized to perform: s3:GetObject on resource: arn:aws:s3:::my-bucket/key",
			"User: arn:aws:iam::[aws-account]:user/[aws-principal] is not authorized to perform: s3:GetObject on resource: arn:aws:s3:::my-bucket/key"},
		{"assumed role and a table",
			"User: arn:aws:sts::123456789012:assumed-role/DeployRole/i-0abc123 is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:us-east-1:123456789012:table/Orders because no identity-based policy allows the dynamodb:PutItem action",
			"User: arn:aws:sts::[aws-account]:assumed-role/[aws-principal] is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:us-east-1:[aws-account]:table/Orders because no identity-based policy allows the dynamodb:PutItem action"},
		{"china partition, path, sentence end",
			"arn:aws-cn:iam::123456789012:role/service-role/MyRole.",
			"arn:aws-cn:iam::[aws-account]:role/[aws-principal]."},
		{"gov cloud root", "arn:aws-us-gov:iam::123456789012:root", "arn:aws-us-gov:iam::[aws-account]:root"},
		{"federated user with email",
			"arn:aws:sts::123456789012:federated-user/bob@example.com, denied",
			"arn:aws:sts::[aws-account]:federated-user/[aws-principal], denied"},
		{"sts get-caller-identity",
			`{"UserId": "AIDAEXAMPLEID", "Account": "123456789012", "Arn": "arn:aws:iam::123456789012:user/bob"}`,
			`{"UserId": "AIDAEXAMPLEID", "Account": "[aws-account]", "Arn": "arn:aws:iam::[aws-account]:user/[aws-principal]"}`},
		{"labelled in AWS text", "AWS Organizations: Account: 123456789012 is suspended", "AWS Organizations: Account: [aws-account] is suspended"},
		{"lambda keeps its function", "arn:aws:lambda:eu-west-1:210987654321:function:resize-images",
			"arn:aws:lambda:eu-west-1:[aws-account]:function:resize-images"},
	}
	s := New(WithHostname(""))
	for _, c := range cases {
		out, rep := s.Clean(c.in)
		assert.Equal(t, c.want, out, c.name)
		assert.Positive(t, rep.Count(KindInternalHost), c.name)
		again, _ := s.Clean(out)
		assert.Equal(t, out, again, "%s: not idempotent", c.name)
	}
}

// TestARNLeavesOthers checks what stays: an account label outside AWS
// text, an unlabelled 12-digit number, an ARN without account, a word
// that ends in "arn", an 11- or 13-digit number, and AWS's own "aws"
// account of managed policies.
func TestARNLeavesOthers(t *testing.T) {
	for _, in := range []string{
		"Account: 123456789012",
		"aws: order 123456789012 failed",
		"arn:aws:s3:::my-bucket/logs/2026/",
		"yarn:aws:iam::123456789012:user/alice",
		"AWS Account: 12345678901",
		"AWS Account: 1234567890123",
		"arn:aws:iam::aws:policy/AdministratorAccess",
		"Amazon Pay order: 123456789012",
	} {
		out, rep := New(WithHostname("")).Clean(in)
		assert.Equal(t, in, out)
		assert.Zero(t, rep.Count(KindInternalHost), in)
	}
}
