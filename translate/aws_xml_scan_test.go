package translate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// awsXMLScanSeeds are AWS error documents of every root, and documents at
// the edges of the direct reader's subset.
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
	`text<Error><Code>X</Code></Error>`, `</x><Error><Code>X</Code></Error>`, `<Error/>`, ``, `<`, `<Error`,
}

// FuzzAWSXMLScan holds the direct reader of AWS XML errors to
// encoding/xml: on every document it is sure of, it gives what
// encoding/xml's Decode gives.
func FuzzAWSXMLScan(f *testing.F) {
	for _, s := range awsXMLScanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		got, sure := awsScanXML([]byte(body))
		if !sure {
			return
		}
		want, ok := awsDecodeXMLStd([]byte(body))
		require.True(t, ok, "the direct reader read a document encoding/xml rejects: %q", body)
		require.Equal(t, want, got, "%q", body)
	})
}

// The seeds in the reader's subset read as encoding/xml reads them, and
// the AWS documents of the fixtures and the benchmarks are in the subset.
func TestAWSXMLScanAgreesOnSeeds(t *testing.T) {
	sure := 0
	for _, s := range awsXMLScanSeeds {
		got, ok := awsScanXML([]byte(s))
		if !ok {
			continue
		}
		sure++
		want, stdOK := awsDecodeXMLStd([]byte(s))
		require.True(t, stdOK, "%q", s)
		assert.Equal(t, want, got, "%q", s)
	}
	assert.GreaterOrEqual(t, sure, 10)
	for _, s := range awsXMLScanSeeds[:4] {
		_, ok := awsScanXML([]byte(s))
		assert.True(t, ok, "%q", s)
	}
	files, err := filepath.Glob("../testdata/vendors/aws/*.http")
	require.NoError(t, err)
	for _, name := range files {
		raw, err := os.ReadFile(name)
		require.NoError(t, err)
		if _, body, found := strings.Cut(string(raw), "\n\n"); found && strings.Contains(body, "<Code>") {
			_, ok := awsScanXML([]byte(body))
			assert.True(t, ok, name)
		}
	}
}
