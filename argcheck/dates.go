package argcheck

import (
	"strings"
	"time"
)

// Dates rewritten into the format the schema asks for, only when the
// value reads one way: "2026/03/14", "March 14, 2026", "14 Mar 2026",
// "25/12/2026" (a day over 12 settles the order). "03/04/2026" could be
// either order and is left alone; so is a date-time with no time zone,
// which could be any instant, and a date-time where a date is asked for,
// whose time would be lost.

// dateLayouts are layouts that name a date unambiguously.
var dateLayouts = []string{
	"2006-01-02", "2006/01/02", "2006.01.02", "2006-1-2", "2006/1/2", "20060102",
	"January 2, 2006", "January 2 2006", "Jan 2, 2006", "Jan 2 2006", "Jan. 2, 2006",
	"2 January 2006", "2 Jan 2006", "02-Jan-2006", "2-Jan-2006",
	"Monday, January 2, 2006", "Mon, Jan 2, 2006", "Mon, 2 Jan 2006",
}

// dateTimeLayouts are layouts of an instant: each carries a zone.
var dateTimeLayouts = []string{
	time.RFC3339Nano, "2006-01-02 15:04:05Z07:00", "2006-01-02T15:04Z07:00", "2006-01-02 15:04Z07:00",
	"2006-01-02T15:04:05Z0700", "2006-01-02 15:04:05Z0700", "2006-01-02T15:04:05 Z07:00",
	"2006-01-02 15:04:05 MST", "2006-01-02T15:04:05 MST", "2006/01/02 15:04:05Z07:00",
	time.RFC1123Z, time.RFC1123, time.RFC822Z, time.RFC850, time.UnixDate, time.ANSIC,
	"2 Jan 2006 15:04 MST", "2 Jan 2006 15:04:05 MST", "2 January 2006 15:04 MST", "2 January 2006 15:04:05 MST",
	"Jan 2, 2006 15:04 MST", "Jan 2, 2006 15:04:05 MST", "January 2, 2006 15:04 MST", "January 2, 2006 15:04:05 MST",
	"2 Jan 2006 15:04 Z07:00", "Jan 2, 2006 15:04 Z07:00", "January 2, 2006 15:04 Z07:00",
}

// rewriteDate returns s as the schema's format ("date" or "date-time"),
// or false when s does not read as exactly one such value.
func rewriteDate(s, format string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return "", false
	}
	switch format {
	case "date":
		// A date-time is not rewritten to its date: the time it carries
		// is what the user asked for, and dropping it loses that.
		if d, ok := parseDate(s); ok {
			return d.Format(time.DateOnly), true
		}
	case "date-time":
		if t, ok := parseInstant(s); ok {
			return t.Format(time.RFC3339Nano), true
		}
	}
	return "", false
}

// parseDate reads a date in one of dateLayouts, or d/m/y and m/d/y with
// "/", "-" or "." when only one order gives a valid date.
func parseDate(s string) (time.Time, bool) {
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	var found []time.Time
	for _, sep := range []string{"/", "-", "."} {
		for _, l := range []string{"02" + sep + "01" + sep + "2006", "2" + sep + "1" + sep + "2006",
			"01" + sep + "02" + sep + "2006", "1" + sep + "2" + sep + "2006"} {
			if t, err := time.Parse(l, s); err == nil && !containsTime(found, t) {
				found = append(found, t)
			}
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return time.Time{}, false
}

// parseInstant reads a date-time that carries its zone. A zone name like
// "MST" counts only when Go knows its offset (UTC, GMT, Z).
func parseInstant(s string) (time.Time, bool) {
	for _, l := range dateTimeLayouts {
		t, err := time.Parse(l, s)
		if err != nil {
			continue
		}
		if name, offset := t.Zone(); offset == 0 && name != "UTC" && name != "GMT" && name != "" && name != "Z" {
			continue // an abbreviation Go could not resolve: unknown offset
		}
		return t, true
	}
	return time.Time{}, false
}

// containsTime reports whether ts holds t.
func containsTime(ts []time.Time, t time.Time) bool {
	for _, x := range ts {
		if x.Equal(t) {
			return true
		}
	}
	return false
}
