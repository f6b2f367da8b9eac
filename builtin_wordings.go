package toolerr

// builtinWordings returns the wordings of a built-in code whose hint can
// point at members of the error (see [Wording]); the Def's own texts are
// those for an error that carries none of them. A test renders every
// built-in code with every combination of members and checks that no hint,
// human hint or suggestion names a member the error lacks.
func builtinWordings(code string) []Wording {
	switch code {
	case CodeValidationFailed:
		return validationWordings()
	case CodeRateLimited:
		return []Wording{{
			When:   MemberRetryAfter,
			Hint:   "Wait retry_after_ms milliseconds, then make the same call again; do not send other calls to this tool meanwhile.",
			Repair: []string{"Wait retry_after_ms.", "Retry the same call.", "Defer the task if the limit keeps being hit."},
		}}
	case CodeIdempotencyInProgress:
		return []Wording{{
			When:   MemberRetryAfter,
			Hint:   "Wait retry_after_ms, then send the identical request with the same key to get its result. Do not change the key.",
			Repair: []string{"Wait retry_after_ms.", "Retry with the same key and body."},
		}}
	case CodeCircuitOpen:
		return []Wording{{
			When:   MemberRetryAfter,
			Hint:   "Wait retry_after_ms before calling this tool again; calls are not being sent downstream until then.",
			Repair: []string{"Wait retry_after_ms.", "Use a fallback tool if one exists."},
		}}
	case CodeCancelled:
		return []Wording{{
			When:   MemberIntent,
			Hint:   "Nothing to do unless the task still needs this result; if it does, check intent for how far the work got before calling again.",
			Repair: []string{"Check intent for work that may have completed."},
		}}
	case CodePartialFailure:
		return []Wording{{
			When:   MemberErrors,
			Hint:   "Do not resend the whole call: some items were applied. Resend only the items listed in errors, each fixed as its own error says.",
			Repair: []string{"Read errors[].", "Resend only the failed items, corrected."},
		}}
	case CodeDuplicateAction:
		return []Wording{{
			When: MemberDetails,
			Hint: "Do not repeat it: an identical call already ran (see details). Use its result; if a second action is really intended, send an Idempotency-Key.",
		}}
	case CodeRepeatedFailure:
		return []Wording{{
			When: MemberDetails,
			Hint: "Do not repeat this call: it failed the same way several times (details.repeated_code). Change the arguments, use a fallback tool if one is offered, or ask the user.",
			Repair: []string{"Read details.repeated_code for the failure that kept recurring.",
				"Change the arguments, or use a fallback tool if one is offered.", "Ask the user when neither is possible."},
		}}
	case CodeToolNotFound:
		// The middleware lists the service's nearest routes ("POST
		// /tools/search_orders") for a path no route matches.
		return []Wording{
			{
				When: MemberAllowedValues | MemberSuggestedValue,
				Hint: "Do not call this path again. suggested_value is the route (method and path) most plausibly meant: call it if it is the tool you intended; otherwise pick from allowed_values, or list the available tools.",
				Repair: []string{"Compare suggested_value and allowed_values with the tool you intended.",
					"Call the matching route, or list the available tools."},
			},
			{
				When: MemberAllowedValues,
				Hint: "Do not call this path again. allowed_values lists the nearest routes (method and path): call the one that is the tool you intended; if none is, list the available tools.",
				Repair: []string{"Compare allowed_values with the tool you intended.",
					"Call the matching route, or list the available tools."},
			},
		}
	case CodeMethodNotAllowed:
		return []Wording{{
			When:   MemberAllowedValues,
			Hint:   "Do not repeat the call with this HTTP method. Call the tool again with one of allowed_values, the methods it accepts.",
			Repair: []string{"Pick a method from allowed_values.", "Call again with it."},
		}}
	}
	return nil
}

// validationWordings word VALIDATION_FAILED by what the error says about
// the argument: where it is (field), what it may be (allowed_values), what
// it should probably be (suggested_value), or, for a batch, per item.
func validationWordings() []Wording {
	const unknown = " if the right value is unknown, ask the user."
	return []Wording{
		{
			When: MemberViolations | MemberExampleRequest,
			Hint: "Correct every argument listed in violations: example_request has every repair applied; send it if it still means what the user asked.",
			Repair: []string{"Read violations: each names an argument, what it allows and its repair.",
				"Send example_request if it still means what the user asked.", "Ask the user when it does not."},
		},
		{
			When: MemberViolations,
			Hint: "Correct every argument listed in violations, using the repair a violation suggests where it matches what the user meant, then call again;" + unknown,
			Repair: []string{"Read violations: each names an argument, what it allows and, where one follows, its repair.",
				"Correct every listed argument and call again.", "Ask the user for what no violation can repair."},
		},
		{
			When:   MemberField | MemberAllowedValues | MemberSuggestedValue,
			Hint:   "Fix the argument named in field: use suggested_value, or another of allowed_values, then call again;" + unknown,
			Repair: []string{"Read field, allowed_values and suggested_value.", "Correct that argument and call again.", "Ask the user when the correct value cannot be derived."},
		},
		{
			When:   MemberField | MemberSuggestedValue,
			Hint:   "Fix the argument named in field: use suggested_value if it matches what the user meant, then call again; otherwise ask the user.",
			Repair: []string{"Read field and suggested_value.", "Correct that argument and call again.", "Ask the user when suggested_value is not what they meant."},
		},
		{
			When:   MemberField | MemberAllowedValues,
			Hint:   "Fix the argument named in field with one of allowed_values, then call again;" + unknown,
			Repair: []string{"Read field and allowed_values.", "Correct that argument and call again.", "Ask the user when the correct value cannot be derived."},
		},
		{
			When:   MemberField,
			Hint:   "Fix the argument named in field as detail says, then call again;" + unknown,
			Repair: []string{"Read field and detail.", "Correct that argument and call again.", "Ask the user when the correct value cannot be derived."},
		},
		{
			When:   MemberErrors,
			Hint:   "Fix each argument listed in errors as its own error says, then call again;" + unknown,
			Repair: []string{"Read errors[].", "Correct each listed argument and call again.", "Ask the user when a correct value cannot be derived."},
		},
		{
			When:   MemberAllowedValues | MemberSuggestedValue,
			Hint:   "Correct the invalid argument that detail describes: use suggested_value, or another of allowed_values, then call again;" + unknown,
			Repair: []string{"Read detail, allowed_values and suggested_value.", "Correct that argument and call again.", "Ask the user when the correct value cannot be derived."},
		},
		{
			When:   MemberSuggestedValue,
			Hint:   "Correct the invalid argument that detail describes, using suggested_value if it matches what the user meant, then call again; otherwise ask the user.",
			Repair: []string{"Read detail and suggested_value.", "Correct that argument and call again.", "Ask the user when suggested_value is not what they meant."},
		},
		{
			When:   MemberAllowedValues,
			Hint:   "Correct the invalid argument that detail describes with one of allowed_values, then call again;" + unknown,
			Repair: []string{"Read detail and allowed_values.", "Correct that argument and call again.", "Ask the user when the correct value cannot be derived."},
		},
	}
}
