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
//   - suggested_value, when there is a repair: a rewrite a careful person
//     would make without asking, which keeps everything the user gave and
//     leaves exactly one value they can have meant. The enum member equal
//     but for case or separators, one typo away or started by the value;
//     the separators and case a pattern asks for ("fr_CA" as "fr-CA",
//     "Order Date" as "order_date"), never a separator dropped; a date in
//     another unambiguous layout; "25" and "true" as the number and
//     boolean; a misspelt, abbreviated or synonymous property's name
//     (limt, desc, zip); duplicates dropped from a unique array; a missing
//     property's default; a number above a maximum its description says
//     the server caps. Never a clamp, rounding or cut the schema does not
//     declare, a unit guessed, a tie broken or a value removed. Repairs
//     settle in up to two steps (a rename, then the value converted), and
//     every one is checked: with it in place, nothing is wrong at that
//     field any more.
//
// Every violation without a repair says to ask the user, names the value
// in the user's terms (the schema's title or short description) and lists
// the choices when there are at most 8. Where even such a repair is not
// what the user meant, "x-toolerr-repair": false ([RepairKeyword]) on the
// property's schema turns its repairs off.
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
