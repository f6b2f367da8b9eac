package toolerrconnect

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"connectrpc.com/connect"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/toolerr/toolerr"
)

// maxMetaValue bounds a JSON-valued ErrorInfo metadata entry
// (allowed_values, suggested_value, example_request, details): a larger
// one is left out, as gRPC carries details in a header.
const maxMetaValue = 1024

// attachDetails adds the contract to out as google.rpc details: ErrorInfo
// (reason: the code; domain: [Domain]; metadata: the members),
// RetryInfo when e has a delay, BadRequest when it names fields,
// LocalizedMessage with the human hint, Help with the docs URL; then the
// details of the handler's own error src that can be sanitized, sanitized.
// It returns how many of src's details were dropped.
func (i *interceptor) attachDetails(out *connect.Error, e *toolerr.Error, src *connect.Error) (dropped int) {
	hint, humanHint, _ := e.RenderedHints()
	add := func(m proto.Message) {
		if d, err := connect.NewErrorDetail(m); err == nil {
			out.AddDetail(d)
		}
	}
	add(&errdetails.ErrorInfo{Reason: e.Code, Domain: Domain, Metadata: metadata(e, hint)})
	if e.RetryAfter > 0 {
		add(&errdetails.RetryInfo{RetryDelay: durationpb.New(e.RetryAfter)})
	}
	if br := badRequest(e); br != nil {
		add(br)
	}
	kept, dropped := i.keptDetails(src)
	hasLocalized := false
	for _, m := range kept {
		if _, ok := m.(*errdetails.LocalizedMessage); ok {
			hasLocalized = true
		}
	}
	if humanHint != "" && !hasLocalized {
		add(&errdetails.LocalizedMessage{Locale: "en-US", Message: humanHint})
	}
	if strings.HasPrefix(e.DocsURL, "https://") {
		add(&errdetails.Help{Links: []*errdetails.Help_Link{{Description: e.Title, Url: e.DocsURL}}})
	}
	for _, m := range kept {
		add(m)
	}
	return dropped
}

// metadata is the ErrorInfo metadata of e: the contract's members under
// their wire names, strings all (AIP-193 metadata is a string map).
func metadata(e *toolerr.Error, hint string) map[string]string {
	md := map[string]string{
		"category":   string(e.Category),
		"severity":   string(e.Severity),
		"retryable":  strconv.FormatBool(e.Retryable),
		"request_id": e.RequestID,
		"tool":       e.Tool,
	}
	set := func(k, v string) {
		if v != "" {
			md[k] = v
		}
	}
	set("trace_id", e.TraceID)
	set("field", e.Field)
	set("hint", hint)
	if e.RetryAfter > 0 {
		ms := (e.RetryAfter.Milliseconds())
		if e.RetryAfter%1e6 != 0 {
			ms++ // rounded up, as retry_after_ms renders
		}
		md["retry_after_ms"] = strconv.FormatInt(ms, 10)
	}
	if u := e.Upstream; u != nil {
		set("upstream_vendor", u.Vendor)
		set("upstream_code", u.Code)
		if u.Status > 0 {
			md["upstream_status"] = strconv.Itoa(u.Status)
		}
		if toolerr.ValidRequestID(u.RequestID) {
			md["upstream_request_id"] = u.RequestID
		}
	}
	setJSON := func(k string, v any) {
		if v == nil {
			return
		}
		if b, err := json.Marshal(v); err == nil && len(b) <= maxMetaValue {
			md[k] = string(b)
		}
	}
	setJSON("allowed_values", e.AllowedValues)
	setJSON("suggested_value", e.SuggestedValue)
	setJSON("example_request", e.ExampleRequest)
	if tools := toolerr.FallbackTools(e); len(tools) > 0 {
		// The actions, when a fallback is among them (fallback.go): a
		// metadata entry the service's own declaration adds.
		setJSON("actions", e.Actions)
	}
	if len(e.Details) > 0 {
		setJSON("details", e.Details)
	}
	return md
}

// badRequest is the BadRequest of e's violations, or of its field alone
// (described by its detail), or nil when e names no field.
func badRequest(e *toolerr.Error) *errdetails.BadRequest {
	var fvs []*errdetails.BadRequest_FieldViolation
	for n, v := range e.Violations {
		if n == toolerr.MaxViolations {
			break // gRPC carries details in a header: bounded
		}
		fvs = append(fvs, &errdetails.BadRequest_FieldViolation{Field: fieldPath(v.Field), Description: v.Reason})
	}
	if len(fvs) == 0 && e.Field != "" {
		fvs = append(fvs, &errdetails.BadRequest_FieldViolation{Field: fieldPath(e.Field), Description: e.Detail})
	}
	if len(fvs) == 0 {
		return nil
	}
	return &errdetails.BadRequest{FieldViolations: fvs}
}

// fieldPath turns a JSON pointer ("/items/2/sku") into the field path
// AIP-193's BadRequest uses ("items[2].sku"); a name that is not a
// pointer is returned as it is.
func fieldPath(ptr string) string {
	if !strings.HasPrefix(ptr, "/") {
		return ptr
	}
	var b strings.Builder
	for seg := range strings.SplitSeq(ptr[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(seg); err == nil && b.Len() > 0 {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if strings.ContainsAny(seg, ".[]`") {
			seg = "`" + strings.ReplaceAll(seg, "`", "``") + "`"
		}
		b.WriteString(seg)
	}
	return b.String()
}

// keptDetails returns the details of the handler's own error src that are
// sent on, each sanitized: ErrorInfo of another domain, QuotaFailure,
// PreconditionFailure, ResourceInfo, Help (https links only) and
// LocalizedMessage. RetryInfo, BadRequest and ErrorInfo of [Domain] were
// read into the error and are sent from it. Everything else is dropped,
// failing closed: DebugInfo (stack entries by definition), RequestInfo
// (the request id is ours; serving data is for debugging), and any type
// not known here or not decodable, which cannot be sanitized.
func (i *interceptor) keptDetails(src *connect.Error) (kept []proto.Message, dropped int) {
	if src == nil {
		return nil, 0
	}
	for n, d := range src.Details() {
		if n == maxDetails {
			dropped += len(src.Details()) - n
			break
		}
		m, err := d.Value()
		if err != nil {
			dropped++
			continue
		}
		switch m := m.(type) {
		case *errdetails.ErrorInfo:
			if m.GetDomain() == Domain {
				continue
			}
		case *errdetails.QuotaFailure, *errdetails.PreconditionFailure, *errdetails.ResourceInfo,
			*errdetails.LocalizedMessage:
		case *errdetails.Help:
			links := m.GetLinks()[:0]
			for _, l := range m.GetLinks() {
				if strings.HasPrefix(l.GetUrl(), "https://") {
					links = append(links, l)
				}
			}
			if len(links) == 0 {
				continue
			}
			m.Links = links
		case *errdetails.RetryInfo, *errdetails.BadRequest:
			continue
		default:
			dropped++
			continue
		}
		cleanMessage(m.ProtoReflect(), i.clean, 0)
		kept = append(kept, m)
	}
	return kept, dropped
}

// cleanMessage passes every string of m, map keys included, through
// clean, and clears every bytes field (opaque: it cannot be sanitized).
func cleanMessage(m protoreflect.Message, clean func(string) string, depth int) {
	if depth > 8 {
		return
	}
	type set struct {
		fd protoreflect.FieldDescriptor
		v  protoreflect.Value
	}
	var sets []set
	var clears []protoreflect.FieldDescriptor
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			l := v.List()
			for j := 0; j < l.Len(); j++ {
				switch fd.Kind() {
				case protoreflect.StringKind:
					l.Set(j, protoreflect.ValueOfString(clean(l.Get(j).String())))
				case protoreflect.MessageKind, protoreflect.GroupKind:
					cleanMessage(l.Get(j).Message(), clean, depth+1)
				case protoreflect.BytesKind:
					l.Set(j, protoreflect.ValueOfBytes(nil))
				}
			}
		case fd.IsMap():
			cleanMap(v.Map(), fd, clean, depth)
		case fd.Kind() == protoreflect.StringKind:
			sets = append(sets, set{fd, protoreflect.ValueOfString(clean(v.String()))})
		case fd.Kind() == protoreflect.BytesKind:
			clears = append(clears, fd)
		case fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind:
			cleanMessage(v.Message(), clean, depth+1)
		}
		return true
	})
	for _, s := range sets {
		m.Set(s.fd, s.v)
	}
	for _, fd := range clears {
		m.Clear(fd)
	}
}

// cleanMap cleans a map field's string keys and values, and the messages
// it holds.
func cleanMap(mp protoreflect.Map, fd protoreflect.FieldDescriptor, clean func(string) string, depth int) {
	type entry struct {
		k protoreflect.MapKey
		v protoreflect.Value
	}
	var entries []entry
	mp.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
		entries = append(entries, entry{k, v})
		return true
	})
	for _, en := range entries {
		mp.Clear(en.k)
	}
	for _, en := range entries {
		k, v := en.k, en.v
		if fd.MapKey().Kind() == protoreflect.StringKind {
			k = protoreflect.ValueOfString(clean(k.String())).MapKey()
		}
		switch fd.MapValue().Kind() {
		case protoreflect.StringKind:
			v = protoreflect.ValueOfString(clean(v.String()))
		case protoreflect.BytesKind:
			continue
		case protoreflect.MessageKind:
			cleanMessage(v.Message(), clean, depth+1)
		}
		mp.Set(k, v)
	}
}

// copyMeta copies the metadata of the handler's own error to dst, each
// value sanitized. Binary metadata (keys ending in -Bin) is opaque and
// dropped, and so are the headers the protocol and toolerr own.
func (i *interceptor) copyMeta(dst, src http.Header) {
	for k, vs := range src {
		ck := http.CanonicalHeaderKey(k)
		if strings.HasSuffix(ck, "-Bin") || ck == "X-Request-Id" || ck == "Content-Type" ||
			strings.HasPrefix(ck, "Grpc-") || strings.HasPrefix(ck, "Connect-") {
			continue
		}
		for _, v := range vs {
			dst.Add(ck, i.clean(v))
		}
	}
}
