package sanitize

import "testing"

// TestSecretOptions: the word after a credential's long option is
// redacted; paths, URLs, other options, variables and prose stay.
func TestSecretOptions(t *testing.T) {
	checkCleanCases(t, []cleanCase{
		{"docker", `docker login -u bob --password Zq8vL2xK9pT4 registry.example.com`, `docker login -u bob --password [REDACTED:password] registry.example.com`},
		{"quoted", `mongosh --host x --password "Zq8v L2xK9pT4" --quiet`, `mongosh --host x --password "[REDACTED:password]" --quiet`},
		{"token upper case", `tool --TOKEN q7Rk2vLx9TzW4mNc8BhJ failed`, `tool --TOKEN [REDACTED:password] failed`},
		{"equals form stays the key/value rule's", `x --password=Zq8vL2xK9pT4`, `x --password=[REDACTED:password]`},
		{"path", `ssh --secret-key /etc/keys/app.key`, `ssh --secret-key /etc/keys/app.key`},
		{"next option", `app --password --verbose`, `app --password --verbose`},
		{"variable", `app --password $DB_PASSWORD`, `app --password $DB_PASSWORD`},
		{"other option", `app --passenger Zq8vL2xK9pT4`, `app --passenger Zq8vL2xK9pT4`},
		{"inside a word", `x-y--password Zq8vL2xK9pT4`, `x-y--password Zq8vL2xK9pT4`},
	})
}
