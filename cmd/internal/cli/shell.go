package cli

import (
	"regexp"
	"strings"
)

// shellSafe matches the words a POSIX shell takes as they are: no white space,
// quotes, globs, variables or other characters the shell gives a meaning.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// ShellQuote returns word as a POSIX shell reads it back as one word: unchanged when
// every character is safe, else in single quotes, inside which the shell gives no
// character a meaning, with each ' written as '\” (close, an escaped quote, reopen).
// The tools use it for the commands they print (snowsim's command that continues a
// run) and the batch scripts farm writes.
func ShellQuote(word string) string {
	if shellSafe.MatchString(word) {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
}

// ShellQuoteAll returns each word quoted with ShellQuote.
func ShellQuoteAll(words []string) []string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = ShellQuote(w)
	}
	return quoted
}
