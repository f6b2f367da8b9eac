package toolerr

// Size limits of rendered members, in bytes unless noted. Rendering truncates
// text members at a rune boundary to fit, drops a JSON-valued member whose
// encoding is over its limit, and renders at most MaxItems per-item errors;
// [Validate] rejects a body that breaks any of them.
const (
	MaxCodeLen        = 64
	MaxTitleLen       = 128
	MaxDetailLen      = 2048
	MaxHintLen        = 512
	MaxFieldLen       = 256
	MaxURILen         = 512  // type, instance, docs_url
	MaxIDLen          = 128  // request_id, upstream ids
	MaxNameLen        = 128  // tool, upstream vendor and code
	MaxListLen        = 16   // entries of suggestions, actions, related_codes
	MaxListItemLen    = 256  // one entry of those lists
	MaxValueLen       = 4096 // encoded allowed_values, suggested_value
	MaxObjectLen      = 8192 // encoded details, example_request
	MaxIntentFieldLen = 512  // each member of intent
	MaxItems          = 100  // entries of errors
	MaxViolations     = 32   // entries of violations
	MaxReasonLen      = 256  // reason of one violation
	MaxBodyLen        = 1 << 20
)

// maxCount is the largest retry_policy.max_attempts and item index: the
// renderer clamps the attempts and leaves out items with a larger index,
// and [Validate] rejects larger values.
const maxCount = 1 << 31
