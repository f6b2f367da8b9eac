package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// position is a line and column of a source file.
type position struct{ line, col int }

// before reports whether p comes before q.
func (p position) before(q position) bool {
	return p.line < q.line || p.line == q.line && p.col < q.col
}

// block is one block of a coverage profile: where it starts and whether a
// test ran it.
type block struct {
	start position
	ran   bool
}

// coverage holds the blocks of a profile by file, named as the profile
// names it: the package's import path and the file's name.
type coverage map[string][]block

// read adds the blocks of a coverage profile (go test -coverprofile) to
// c. A block listed more than once, as when several test binaries cover a
// package or several profiles are read, ran when any of its lines says
// so.
func (c coverage) read(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "mode:") {
			continue
		}
		file, b, err := parseBlock(line)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		c[file] = append(c[file], b)
	}
	return sc.Err()
}

// parseBlock parses one line of a profile:
// "path/file.go:startLine.startCol,endLine.endCol statements count".
func parseBlock(line string) (string, block, error) {
	colon := strings.LastIndexByte(line, ':')
	if colon < 0 {
		return "", block{}, fmt.Errorf("no file in %q", line)
	}
	fields := strings.Fields(line[colon+1:])
	if len(fields) != 3 {
		return "", block{}, fmt.Errorf("not a block: %q", line)
	}
	startText, _, ok := strings.Cut(fields[0], ",")
	if !ok {
		return "", block{}, fmt.Errorf("no range in %q", line)
	}
	start, err := parsePosition(startText)
	if err != nil {
		return "", block{}, fmt.Errorf("%w in %q", err, line)
	}
	count, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil {
		return "", block{}, fmt.Errorf("bad count in %q", line)
	}
	return line[:colon], block{start: start, ran: count > 0}, nil
}

// parsePosition parses "line.col".
func parsePosition(s string) (position, error) {
	l, c, ok := strings.Cut(s, ".")
	line, err1 := strconv.Atoi(l)
	col, err2 := strconv.Atoi(c)
	if !ok || err1 != nil || err2 != nil {
		return position{}, fmt.Errorf("bad position %q", s)
	}
	return position{line, col}, nil
}

// reached reports whether a test ran any block of file that starts within
// [from, to], and whether the profile has any block there at all (a
// function without statements has none).
func (c coverage) reached(file string, from, to position) (ran, some bool) {
	for _, b := range c[file] {
		if b.start.before(from) || to.before(b.start) {
			continue
		}
		some = true
		if b.ran {
			return true, true
		}
	}
	return false, some
}
