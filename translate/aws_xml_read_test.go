package translate

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// awsXMLScanSeeds are AWS error documents of every root, and documents at
// the edges of XML: references, CDATA, namespaces, declarations, malformed
// markup, trailing text.
var awsXMLScanSeeds = []string{
	`<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error><RequestId>4a4a7f45-3b0c</RequestId></ErrorResponse>`,
	`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>a/b.txt</Key><BucketName>bkt</BucketName><RequestId>R1</RequestId><HostId>H1=</HostId></Error>`,
	`<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>InvalidParameterValue</Code><Message>Value (x) for parameter groupId is invalid</Message></Error></Errors><RequestID>r-1</RequestID></Response>`,
	"<Error>\n  <Code>SlowDown</Code>\n  <Message>Please reduce your request rate.</Message>\n</Error>\n",
	`<?xml version='1.0' standalone='yes'?><Error><Code a="1" b='2'>X</Code></Error>`,
	`<Error><Code>A&amp;B &lt;C&gt; &apos;&quot;</Code><Message/><Key></Key></Error>`,
	`<Error><Code>A<b>skipped</b>C</Code><Code>Last</Code></Error>`,
	`<ErrorResponse><Error><Code>A</Code></Error><Error><Message>m</Message></Error></ErrorResponse>`,
	`<Response><Errors><Error><Code>A</Code></Error><Other/><Error><Code>B</Code></Error></Errors><Errors><Error/></Errors></Response>`,
	`<Error><Code>X</Code></Error>trailing <junk`,
	`<Error><Code>X</Code></Error><Second/>`,
	`<Error><Code>X</Code><Message>a]]>b</Message></Error>`,
	`<Error><Code>X</Code><Message>&#65;&#x42;&unknown;</Message></Error>`,
	`<Error><Code>X</Code><Message><![CDATA[<raw>]]></Message><!-- c --></Error>`,
	"<Error><Code>X\r\nY</Code><Message>caf\xc3\xa9 \xff</Message></Error>",
	`<Error><Code>X</Code></Eror>`, `<Error><Code>X</Code>`, `<Error><Code>X</Code></Error >`, `<Error ><Code>X</Code ></Error>`,
	`<a:Error xmlns:a="u"><a:Code>X</a:Code></a:Error>`, `<Error xmlns:a="u" a:b="c"><Code>X</Code></Error>`,
	`<Error a="1"b="2"><Code>X</Code></Error>`, `<Error a=1><Code>X</Code></Error>`, `<Error a><Code>X</Code></Error>`,
	`<?xml version="1.1"?><Error><Code>X</Code></Error>`, `<?xml version="1.0" encoding="latin1"?><Error><Code>X</Code></Error>`,
	`<?xml-stylesheet href="a"?><Error><Code>X</Code></Error>`, `  <?xml version="1.0"?><Error><Code>X</Code></Error>`,
	"\xef\xbb\xbf<Error><Code>X</Code></Error>", `<!DOCTYPE x><Error><Code>X</Code></Error>`,
	`<1Error><Code>X</Code></1Error>`, `<Error><Code>X</Code><-x/></Error>`, `<Error><Co.de-1>X</Co.de-1></Error>`,
	`<Error><Code>X</Code></Error>` + strings.Repeat("<a>", 40), strings.Repeat("<a>", 40) + strings.Repeat("</a>", 40),
	`<a:Error xmlns:a="u"><Code>X</Code></b:Error>`, `<a:Error xmlns:a="u" xmlns:a="v"><Code>X</Code></a:Error>`,
	`<b:Error xmlns:a="u"><Code>X</Code></b:Error>`, `<xml:Error><Code>X</Code></xml:Error>`, `<xmlns:Error><Code>X</Code></xmlns:Error>`,
	`<Error xmlns="u" xmlns:a="v"><a:Code>X</a:Code></Error>`, `<Error><Code>X</Code></a:Error>`, `<xmlns><Code>X</Code></xmlns>`,
	`<Error><a:Code xmlns:a="u">X</a:Code><Code>Y</Code></Error>`, `<Error><Code>X</Code><Code></Code></Error>`,
	`text<Error><Code>X</Code></Error>`, `</x><Error><Code>X</Code></Error>`, `<Error/>`, ``, `<`, `<Error`,
}

// awsDecodeXMLStd is the reference awsDecodeXML is held to: encoding/xml's
// Decode of the capped body into an awsXMLDoc, and how deep the elements
// it read were nested.
func awsDecodeXMLStd(body []byte) (doc awsXMLDoc, depth int, ok bool) {
	if len(body) > awsMaxXML {
		body = body[:awsMaxXML]
	}
	if xml.NewDecoder(bytes.NewReader(body)).Decode(&doc) != nil {
		return awsXMLDoc{}, 0, false
	}
	if len(doc.Errors) > 1 {
		doc.Errors = doc.Errors[:1]
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	for open := 0; ; {
		tok, err := d.Token()
		if err != nil {
			return doc, depth, true
		}
		switch tok.(type) {
		case xml.StartElement:
			open++
			depth = max(depth, open)
		case xml.EndElement:
			if open--; open == 0 {
				return doc, depth, true
			}
		}
	}
}

// checkAWSXMLAgrees fails unless awsDecodeXML reads body as encoding/xml's
// Decode does (the first EC2 error only), or, for a document nested deeper
// than awsXMLMaxDepth, refuses it.
func checkAWSXMLAgrees(t *testing.T, body []byte) {
	t.Helper()
	got, ok := awsDecodeXML(body)
	want, depth, stdOK := awsDecodeXMLStd(body)
	switch {
	case !stdOK:
		require.False(t, ok, "read a document encoding/xml rejects: %q", body)
	case depth > awsXMLMaxDepth:
		require.False(t, ok, "read a document nested %d deep: %q", depth, body)
	default:
		require.True(t, ok, "refused a document encoding/xml reads: %q", body)
		require.Equal(t, want, got, "%q", body)
	}
}

// FuzzAWSXMLScan holds the token reader of AWS XML errors to encoding/xml's
// Decode: on every document it gives what Decode into an awsXMLDoc gives,
// but for documents nested past its bound, which it refuses.
func FuzzAWSXMLScan(f *testing.F) {
	for _, s := range awsXMLScanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) { checkAWSXMLAgrees(t, []byte(body)) })
}

// The seeds read as encoding/xml reads them, and so do the AWS documents
// of the fixtures; nesting past the bound and a flood of EC2 errors are
// refused or cut.
func TestAWSXMLReadAgreesWithDecode(t *testing.T) {
	for _, s := range awsXMLScanSeeds {
		checkAWSXMLAgrees(t, []byte(s))
	}
	for _, s := range awsXMLScanSeeds[:4] {
		_, ok := awsDecodeXML([]byte(s))
		assert.True(t, ok, "%q", s)
	}
	files, err := filepath.Glob("../testdata/vendors/aws/*.http")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, name := range files {
		raw, err := os.ReadFile(name)
		require.NoError(t, err)
		if _, body, found := strings.Cut(string(raw), "\n\n"); found && strings.Contains(body, "<Code>") {
			checkAWSXMLAgrees(t, []byte(body))
			_, ok := awsDecodeXML([]byte(body))
			assert.True(t, ok, name)
		}
	}

	inside := func(depth int) string {
		return `<Error><Code>X</Code>` + strings.Repeat("<a>", depth-1) + strings.Repeat("</a>", depth-1) + `</Error>`
	}
	doc, ok := awsDecodeXML([]byte(inside(awsXMLMaxDepth)))
	require.True(t, ok)
	assert.Equal(t, "X", doc.Code)
	_, ok = awsDecodeXML([]byte(inside(awsXMLMaxDepth + 1)))
	assert.False(t, ok)
	checkAWSXMLAgrees(t, []byte(inside(awsXMLMaxDepth+1)))

	flood := `<Response><Errors>` + strings.Repeat(`<Error><Code>A</Code></Error>`, 2000) + `</Errors></Response>`
	doc, ok = awsDecodeXML([]byte(flood))
	require.True(t, ok)
	assert.Len(t, doc.Errors, 1)
	checkAWSXMLAgrees(t, []byte(flood))
}
