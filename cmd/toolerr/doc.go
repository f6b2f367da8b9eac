// Command toolerr explains, validates and documents toolerr's error
// contract from the command line, checks a tool call's arguments against
// its input schema, and classifies captured HTTP error responses the way
// the middleware would.
//
// Install it with
//
//	go install github.com/toolerr/toolerr/cmd/toolerr@latest
//
// Subcommands:
//
//   - explain CODE: prints the default registry's documentation of one
//     code, the section errdocs.Markdown renders for it. The code is
//     matched without regard to case.
//   - validate FILE|-: checks a problem body against the contract
//     (toolerr.Validate) and prints "valid" or what is wrong.
//   - docs [--format markdown|openapi|tools] [--codes A,B]: prints the
//     default registry's documentation: errdocs.Markdown, errdocs.OpenAPI
//     or the JSON of errdocs.ToolErrors. --codes keeps only the codes
//     named (tools format only).
//   - check SCHEMA ARGS|-: checks a tool call's arguments (a JSON file, or
//     standard input) against a JSON Schema file with argcheck, and prints
//     the violations with their repairs.
//   - classify [--host H] [--method M] [--now T] [--fixture DIR] FILE|-…:
//     reads captured HTTP responses, raw (as curl -i prints them, interim
//     100 Continue responses and HTTP/2 status lines included) or HAR 1.2,
//     and prints for every response the translators read as an error
//     (status 400 or more, or a success whose body says it failed, as
//     Slack's ok:false) the problem an agent would see, built by the path
//     translate.Response takes with vendor text cleaned by the default
//     sanitizer; the translator that matched; and what the sanitizer
//     removed. --host and --method describe the request of a raw capture
//     (a HAR file names its own); --now (RFC 3339) is the clock delays are
//     measured from, by default the response's Date header, else the HAR
//     entry's start, else now. --fixture DIR also writes each error
//     response as a test fixture (DIR/<vendor>_<status>_<n>.http and .json)
//     in the format of testdata/vendors: the body as captured, without
//     Set-Cookie headers; review it before committing it. A capture file
//     is read up to 32 MiB, a body up to 1 MiB, a HAR file up to 10000
//     entries.
//
// Every subcommand takes --json, which prints one JSON document on
// standard output instead of text. Errors go to standard error.
//
// Exit codes:
//
//   - 0: success.
//   - 1: the thing checked is bad: validate found the body invalid, check
//     found violations, classify saw an error response.
//   - 2: usage error: an unknown subcommand or code, bad flags, a file that
//     cannot be read or parsed.
package main
