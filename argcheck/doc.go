// Package argcheck turns a tool call's arguments that break the tool's JSON
// Schema into one VALIDATION_FAILED that repairs itself.
//
// The commonest mistake an agent makes is a bad argument: a limit over the
// maximum, "Express" for "express", "2026/03/14" for a date, "limt" for
// "limit". A [Schema], compiled from the tool's JSON Schema ([Compile]) or
// derived from its Go argument type the way the MCP SDK derives it ([For]),
// validates the decoded arguments with a maintained validator
// (github.com/santhosh-tekuri/jsonschema/v6, formats asserted) and reports
// every violation, not only the first, in the error's violations member:
//
//   - field, the JSON pointer of the offending value (a missing property is
//     pointed at where it belongs);
//   - reason, what is wrong there;
//   - allowed_values, from the keyword that failed: the enum, the bounds
//     {minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf},
//     the pattern, format, type or const, the allowed property names;
//   - suggested_value, whenever one follows deterministically from the
//     value sent and the schema: a number clamped into its range and onto
//     its multipleOf, the enum member equal but for case or one small typo
//     away, a date or date-time in another unambiguous layout rewritten,
//     a string cut to maxLength, a numeric string as a number, a misspelt
//     property's nearest allowed name, duplicates dropped from a unique
//     array, a missing property's default. Every suggestion is checked:
//     with it in place, nothing is wrong at that field any more.
//
// A value that matches no branch of a oneOf or anyOf is reported inside the
// branch it meant, when exactly one fits: the one whose discriminator (a
// property with a const in the branches) the value's equals, or equals but
// for case and separators, one typo or a prefix of three letters or more;
// else the only one whose required properties are present, as sent or
// once a misspelt property takes its nearest name. That branch's
// violations are repaired like any other. When no branch or several fit,
// the union is one violation at its own location with no suggestion.
//
// A repair that is deterministic is not always what the user meant: the
// nearest valid refund amount, or a parcel's weight cut to the carrier's
// limit. On such a property's schema, "x-toolerr-repair": false
// ([RepairKeyword]) turns its repairs off; its violations then say to ask
// the user.
//
// The top-level field, allowed_values and suggested_value repeat the most
// actionable violation (one with a suggestion first). example_request, the
// arguments with every suggestion applied, is given only when every
// violation has one and the repaired arguments validate. The hint is
// imperative and names the fields and fixes ("Set limit between 1 and
// 100."); a missing value nothing can derive says to ask the user.
//
// One Schema serves an HTTP tool ([Schema.Middleware], [Decode]) and an MCP
// tool (mcptool.Middleware validates a rejected call's arguments against
// the tool's input schema with it). Valid arguments cost one validation.
//
// A Schema is safe for concurrent use.
package argcheck
