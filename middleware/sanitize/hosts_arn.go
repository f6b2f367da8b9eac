package sanitize

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// AWS account ids and principal names. An AWS error names the caller and
// the resource by ARN ("User: arn:aws:iam::123456789012:user/alice is not
// authorized to perform: s3:GetObject on resource: …"). The 12-digit
// account id and the name of an IAM or STS principal are internal, as
// host names are; the partition, service, region and resource type stay,
// so the agent still reads which permission failed on what:
//
//   - arn:aws:iam::123456789012:user/alice becomes
//     arn:aws:iam::[aws-account]:user/[aws-principal];
//   - arn:aws:sts::123456789012:assumed-role/Deploy/session becomes
//     arn:aws:sts::[aws-account]:assumed-role/[aws-principal];
//   - arn:aws:dynamodb:us-east-1:123456789012:table/Orders becomes
//     arn:aws:dynamodb:us-east-1:[aws-account]:table/Orders;
//   - every partition: aws, aws-cn, aws-us-gov, aws-iso…;
//   - a bare 12-digit id under a label that names it ("Account:
//     123456789012", "AccountId": "123456789012") in a text that speaks
//     of AWS (it names aws, amazon or an ARN) becomes [aws-account].
//
// The placeholders are stable and match no rule, so cleaning the output
// changes nothing. They are counted as KindInternalHost.

const (
	awsAccountMark   = "[aws-account]"
	awsPrincipalMark = "[aws-principal]"
)

// awsAccountLen is the length of an AWS account id.
const awsAccountLen = 12

// principalTypes are the resource types of IAM and STS ARNs whose
// resource is a principal's name (with its path, or a role and session).
var principalTypes = [...]string{"user/", "role/", "group/", "assumed-role/", "federated-user/"}

// matchARN records the account id and principal name of the ARN whose
// "arn:" starts at s[i], if any.
func matchARN(s string, i int, out *spanList) {
	if !strings.HasPrefix(s[i:], "arn:aws") || i > 0 && isWordByte(s[i-1]) {
		return
	}
	fields := [4]int{} // the ends of partition, service, region, account
	p := i + len("arn:")
	for f := range fields {
		for p < len(s) && (isAlnumByte(s[p]) || s[p] == '-' || f == 3 && (s[p] == '[' || s[p] == ']')) {
			p++
		}
		if p >= len(s) || s[p] != ':' {
			return
		}
		fields[f] = p
		p++
	}
	acct := s[fields[2]+1 : fields[3]]
	if len(acct) == awsAccountLen && isDigits(acct) {
		out.add(fields[2]+1, fields[3], awsAccountMark, KindInternalHost)
	}
	service := s[fields[0]+1 : fields[1]]
	if service != "iam" && service != "sts" {
		return
	}
	for _, t := range principalTypes {
		if !strings.HasPrefix(s[p:], t) {
			continue
		}
		ns := p + len(t)
		ne := ns
		for ne < len(s) && isPrincipalByte(s[ne]) {
			ne++
		}
		for ne > ns && (s[ne-1] == '.' || s[ne-1] == ',') {
			ne-- // a sentence's end, not the name's
		}
		if ne > ns && s[ns] != '[' {
			out.add(ns, ne, awsPrincipalMark, KindInternalHost)
		}
		return
	}
}

// isPrincipalByte reports whether c may be part of an IAM name, its path
// or an STS session name: letters, digits and +=,.@_-/.
func isPrincipalByte(c byte) bool {
	return isAlnumByte(c) || strings.IndexByte("+=,.@_-/", c) >= 0
}

// accountLabels are the labels, lower case without ' ', '_' and '-', that
// name an AWS account id.
var accountLabels = [...]string{"account", "accountid", "awsaccount", "awsaccountid", "accountnumber"}

// matchAccountLabel records the 12-digit account id after the label whose
// separator ':' is at s[i] ("Account: 123456789012", "\"AccountId\":
// \"123456789012\""), if any. aws remembers whether s speaks of AWS;
// it is asked only when a label and an id are found.
func matchAccountLabel(s string, i int, aws *awsText, out *spanList) {
	ks := i
	if ks > 0 && (s[ks-1] == '"' || s[ks-1] == '\'') {
		ks--
	}
	ke := ks
	for ks > 0 && ke-ks < maxAccountLabel && (isWordByte(s[ks-1]) || s[ks-1] == '-' || s[ks-1] == ' ') {
		ks--
	}
	var b [maxAccountLabel]byte
	n := 0
	for k := ks; k < ke; k++ {
		if c := s[k]; c != ' ' && c != '_' && c != '-' {
			b[n] = asciifold.Lower(c)
			n++
		}
	}
	if !isAccountLabel(string(b[:n])) {
		return
	}
	vs := skipSpaces(s, i+1)
	if vs < len(s) && (s[vs] == '"' || s[vs] == '\'') {
		vs++
	}
	ve := vs + digitsLen(s[vs:])
	if ve-vs != awsAccountLen || ve < len(s) && isWordByte(s[ve]) || !aws.speaks(s) {
		return
	}
	out.add(vs, ve, awsAccountMark, KindInternalHost)
}

// isAccountLabel reports whether norm, a label read back from its colon,
// ends with one of accountLabels ("Invalid account" reads "invalidaccount").
func isAccountLabel(norm string) bool {
	for _, l := range accountLabels {
		if strings.HasSuffix(norm, l) {
			return true
		}
	}
	return false
}

// maxAccountLabel bounds how much of a label is read back from its colon.
const maxAccountLabel = 24

// awsText remembers whether a text speaks of AWS: 0 not known yet, 1 yes,
// 2 no.
type awsText uint8

// speaks reports whether s speaks of AWS, reading s once.
func (a *awsText) speaks(s string) bool {
	if *a == 0 {
		*a = 2
		if speaksOfAWS(s) {
			*a = 1
		}
	}
	return *a == 1
}

// speaksOfAWS reports whether s names AWS: "aws" (which every ARN holds)
// or "amazon".
func speaksOfAWS(s string) bool {
	return asciifold.Contains(s, "aws") || asciifold.Contains(s, "amazon")
}
