package translate

// gwContainsFold reports whether the start of body holds the lower-case
// ASCII needle, ignoring ASCII case.
func gwContainsFold(body []byte, needle string) bool {
	return indexFold(pageHead(body), needle) >= 0
}
