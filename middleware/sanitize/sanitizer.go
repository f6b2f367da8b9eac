package sanitize

import (
	"os"
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/textcut"
)

// Defaults of a [Sanitizer].
const (
	// DefaultMaxInput is how much of a text is read; the rest is dropped
	// before any stage runs, so a huge body costs no more than this.
	DefaultMaxInput = 64 << 10
	// DefaultMaxOutput is the longest cleaned text, in bytes. It equals the
	// error contract's limit on detail.
	DefaultMaxOutput = 2048
	// MinSecretLen is the shortest value [WithSecrets] accepts: a shorter
	// one would redact ordinary words.
	MinSecretLen = 6
)

// truncationMark ends a text cut to fit the output cap.
const truncationMark = "…"

// Option configures a [Sanitizer].
type Option func(*config)

type config struct {
	maxInput         int
	maxOutput        int
	secrets          []string
	hostname         string
	hostnameSet      bool
	internalSuffixes []string
	prefilter        bool
	personal         bool
}

// WithMaxInput sets how many bytes of a text are read. Default:
// [DefaultMaxInput] (64 KiB). Values below 1 keep the default.
func WithMaxInput(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxInput = n
		}
	}
}

// WithMaxOutput sets the longest cleaned text, in bytes; longer text is cut
// at a rune boundary and ends with "…". Default: [DefaultMaxOutput] (2048).
// Values below 16 keep the default.
func WithMaxOutput(n int) Option {
	return func(c *config) {
		if n >= 16 {
			c.maxOutput = n
		}
	}
}

// WithSecrets adds exact values that are always redacted, as
// "[REDACTED:configured-secret]": the service's own API keys, database
// passwords, signing keys. Values shorter than [MinSecretLen] bytes are
// ignored. Default: none.
func WithSecrets(values ...string) Option {
	return func(c *config) {
		for _, v := range values {
			if len(v) >= MinSecretLen {
				c.secrets = append(c.secrets, v)
			}
		}
	}
}

// WithHostname sets the server's own host name, which is redacted as an
// internal host. Default: [os.Hostname] when New runs. An empty name
// redacts no own host name.
func WithHostname(name string) Option {
	return func(c *config) { c.hostname, c.hostnameSet = name, true }
}

// WithInternalSuffixes adds DNS suffixes (".corp.example.com") whose hosts
// are redacted as internal, to the built-in ones: .internal, .local, .svc,
// .cluster.local, .localhost, .lan, .home.arpa. Default: none added.
func WithInternalSuffixes(suffixes ...string) Option {
	return func(c *config) { c.internalSuffixes = append(c.internalSuffixes, suffixes...) }
}

// Sanitizer cleans untrusted text. It is immutable after [New] and safe for
// concurrent use.
type Sanitizer struct {
	maxInput  int
	maxOutput int
	secrets   *secretRules
	payment   *paymentRules
	hosts     *hostRules
	// observe, when set, is told of every report that is not clean
	// (observe.go).
	observe func(Report)
}

// New returns a Sanitizer with the options' settings.
func New(opts ...Option) *Sanitizer {
	cfg := config{maxInput: DefaultMaxInput, maxOutput: DefaultMaxOutput, prefilter: true}
	for _, o := range opts {
		o(&cfg)
	}
	if !cfg.hostnameSet {
		cfg.hostname, _ = os.Hostname() // no host name: nothing extra to redact
	}
	return &Sanitizer{
		maxInput:  cfg.maxInput,
		maxOutput: cfg.maxOutput,
		secrets:   newSecretRules(cfg.secrets, cfg.prefilter),
		payment:   newPaymentRules(cfg.personal, cfg.prefilter),
		hosts:     newHostRules(cfg.hostname, cfg.internalSuffixes, cfg.prefilter),
	}
}

// maxCleanRounds bounds how often Clean runs the pipeline on its own
// output (see Clean).
const maxCleanRounds = 3

// Clean returns text with the pipeline of the package documentation applied,
// and a report of what it removed.
//
// A redaction can remove the markup that made a text XML rather than HTML
// (a private key block running to the end of the text takes a stray
// "</x" with it), so the output can still look like HTML. Clean then runs
// the pipeline on its output again, at most maxCleanRounds times in all,
// so that cleaning its output changes nothing. Output without '<' is
// never looked at again.
func (s *Sanitizer) Clean(text string) (string, Report) {
	if s.plainProse(text) {
		return text, Report{} // no stage can change it: see plainProse
	}
	out, rep := s.clean(text)
	s.report(rep)
	return out, rep
}

// clean is Clean without the plain-prose path: the whole pipeline.
func (s *Sanitizer) clean(text string) (string, Report) {
	text, rep := s.cleanOnce(text)
	for round := 1; round < maxCleanRounds && looksLikeHTML(text); round++ {
		var again Report
		text, again = s.cleanOnce(text)
		rep.merge(again)
	}
	return text, rep
}

// cleanOnce is one pass of the pipeline.
func (s *Sanitizer) cleanOnce(text string) (string, Report) {
	var rep Report
	text, ok := s.capAndDecode(text, &rep)
	if !ok {
		return "", rep
	}
	if !utf8.ValidString(text) {
		rep.add(KindInvalidUTF8, countInvalid(text))
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	if looksLikeHTML(text) {
		text = htmlToText(text)
		rep.add(KindHTML, 1)
	}
	// Secrets before stack traces: stripping a frame line can take a
	// secret's context with it ("-----BEGIN PRIVATE KEY-----" at the end
	// of a Python frame line, a "password=" before the frame that holds
	// its value), leaving a bare secret no rule recognizes.
	text = s.secrets.redact(text, &rep)
	// Payment data next, before the stages that drop text or change its
	// white space: a key ("cvc", "SSN") must still stand before its value.
	text = s.payment.redact(text, &rep)
	unstripped := text
	text = stripStackTraces(text, &rep)
	untouched := text == unstripped
	text = s.hosts.redact(text, &rep)
	text, cut := collapseAndCut(text, s.maxOutput)
	// Collapsing can join a trace line that line breaks had split ("at f
	// (\n/app/x.js:1:2)"). Stripping the short collapsed text again makes
	// cleaning the output change nothing. When no stage since the secrets
	// changed the text, that second pass would read what the first read,
	// and the stage is a function of its input: it would change nothing.
	if untouched && text == unstripped {
		rep.add(KindTruncated, cut)
		return text, rep
	}
	if again := stripStackTraces(text, &rep); again != text {
		var cut2 int
		text, cut2 = collapseAndCut(again, s.maxOutput)
		cut += cut2
	}
	rep.add(KindTruncated, cut)
	return text, rep
}

// Redact applies only the secret and payment stages to text (after capping
// it at the input cap and repairing its UTF-8): for text that goes to logs
// and spans, such as a panic's stack or a Go error's chain, where stack
// frames, line breaks and internal host names help the operator but
// secrets, card numbers and (with [WithPersonalData]) personal data must
// still not be written.
func (s *Sanitizer) Redact(text string) string {
	var rep Report
	text, ok := s.capAndDecode(text, &rep)
	if !ok {
		s.report(rep)
		return ""
	}
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	text = s.payment.redact(s.secrets.redact(text, &rep), &rep)
	s.report(rep)
	return text
}

// capAndDecode caps text at the input cap and decodes it (decode.go). A
// text cut by the cap also loses the word at the cut: it may be the start
// of a secret that no rule recognizes once cut. ok is false when the text
// is undecodable and must yield nothing.
func (s *Sanitizer) capAndDecode(text string, rep *Report) (string, bool) {
	capped := false
	if len(text) > s.maxInput {
		cut := textcut.RuneEnd(text, s.maxInput)
		rep.add(KindInputCapped, len(text)-cut)
		text, capped = text[:cut], true
	}
	text, ok := decodeText(text, rep)
	if ok && capped {
		text = textcut.DropLastWord(text)
	}
	return text, ok
}

// CleanText returns only the cleaned text of [Sanitizer.Clean]. Its type fits
// classify.WithMessageFilter.
func (s *Sanitizer) CleanText(text string) string {
	out, _ := s.Clean(text)
	return out
}

// countInvalid counts the invalid UTF-8 sequences of s.
func countInvalid(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n++
		}
		i += size
	}
	return n
}

// collapseAndCut replaces every run of white space and control characters
// with one space, trims both ends, and cuts the result to max bytes at a
// rune boundary, ending it with [truncationMark]. It returns s itself when
// nothing changes, and never builds more than max bytes of output, so a
// 64 KiB text costs one scan up to the point where the cap is reached.
// cut is the number of bytes dropped by the cap: the collapsed bytes past
// the mark plus the input not scanned.
func collapseAndCut(s string, max int) (out string, cut int) {
	if len(s) <= max && collapsed(s) {
		return s, 0
	}
	buf := make([]byte, 0, min(len(s), max)+utf8.UTFMax)
	pending := false
	for i := 0; i < len(s); {
		if !pending {
			// Whole words that collapsing leaves as they are go in one
			// copy; a space is pending only before a byte that is none.
			if j := plainWords(s, i, max-len(buf), len(buf) == 0 || buf[len(buf)-1] == ' '); j > i {
				buf = append(buf, s[i:j]...)
				i = j
				continue
			}
		}
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if isSpaceOrControl(r) {
			pending = len(buf) > 0
			i += size
			continue
		}
		need := size
		if pending {
			need++
		}
		if len(buf)+need > max {
			keep := textcut.RuneEnd(buf, max-len(truncationMark))
			for keep > 0 && buf[keep-1] == ' ' {
				keep--
			}
			rest := string(buf[keep:])
			if pending {
				rest += " "
			}
			keep = dropCutNumber(buf, keep, rest+s[i:min(len(s), i+8)])
			dropped := len(buf) - keep + len(s) - i
			buf = append(buf[:keep], truncationMark...)
			return string(buf), dropped
		}
		if pending {
			buf = append(buf, ' ')
			pending = false
		}
		if size == 1 {
			buf = append(buf, s[i])
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return string(buf), 0
}

// dropCutNumber returns keep, or less when the cut at keep splits a number
// (buf[:keep] ends in a digit and rest, the collapsed text after the cut,
// goes on with a digit, or with a space or '-' and a digit): then the
// number's kept part goes, with the space before it. A number cut short
// can pass a check the whole one failed (a 20-digit id cut to a
// Luhn-valid 16), and cleaning the output would then change it.
func dropCutNumber(buf []byte, keep int, rest string) int {
	if keep == 0 || !isDigitByte(buf[keep-1]) || rest == "" {
		return keep
	}
	c := rest[0]
	if !isDigitByte(c) && !((c == ' ' || c == '-') && len(rest) > 1 && isDigitByte(rest[1])) {
		return keep
	}
	for keep > 0 && (isDigitByte(buf[keep-1]) ||
		((buf[keep-1] == ' ' || buf[keep-1] == '-') && keep > 1 && isDigitByte(buf[keep-2]))) {
		keep--
	}
	for keep > 0 && buf[keep-1] == ' ' {
		keep--
	}
	return keep
}

// collapseSpace is collapseAndCut without a cap.
func collapseSpace(s string) string {
	out, _ := collapseAndCut(s, len(s))
	return out
}

// collapsed reports whether s has no leading, trailing or repeated space
// and no other white space or control character: whether collapseAndCut
// would leave it as it is.
func collapsed(s string) bool {
	prevSpace := true // a leading space must go
	for i := 0; i < len(s); i++ {
		if j := plainWords(s, i, len(s), prevSpace); j > i {
			if j == len(s) {
				return true // a plain word ends in a space only before a printable byte
			}
			i, prevSpace = j, s[j-1] == ' '
		}
		b := s[i]
		if b >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if isSpaceOrControl(r) {
				return false
			}
			i += size - 1
			prevSpace = false
			continue
		}
		sp := b <= ' ' || b == 0x7f
		if sp && (b != ' ' || prevSpace) {
			return false
		}
		prevSpace = sp
	}
	return !prevSpace || len(s) == 0
}

// isSpaceOrControl reports whether r is white space or a control character,
// including the Unicode line and paragraph separators and the BOM.
func isSpaceOrControl(r rune) bool {
	switch {
	case r <= ' ', r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r <= 0x9f, r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200b,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000, r == 0xfeff:
		return true
	}
	return false
}
