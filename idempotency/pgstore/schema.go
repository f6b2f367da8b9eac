package pgstore

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// names are the quoted, schema-qualified names of a table's objects.
type names struct {
	table, seq, index, claim, complete, release string
	// lockID is the advisory lock the migration holds, derived from the
	// schema and table, so that concurrent migrations of one table wait
	// for each other.
	lockID int64
}

// newNames derives the names of the objects of table in schema. Postgres
// truncates identifiers to 63 bytes: keep table names under 50 bytes so
// that the derived names stay distinct.
func newNames(schema, table string) names {
	q := func(suffix string) string { return pgx.Identifier{schema, table + suffix}.Sanitize() }
	h := fnv.New64a()
	_, _ = h.Write([]byte("toolerr/idempotency/pgstore\x00" + schema + "\x00" + table))
	return names{
		table:    q(""),
		seq:      q("_token_seq"),
		index:    pgx.Identifier{table + "_expires_at_idx"}.Sanitize(),
		claim:    q("_claim"),
		complete: q("_complete"),
		release:  q("_release"),
		lockID:   int64(h.Sum64()),
	}
}

// MigrationSQL returns the migration that creates the table named table in
// schema (which must exist), its token sequence, its expiry index and the
// functions the store calls, as one script of several statements. It is
// idempotent (IF NOT EXISTS, CREATE OR REPLACE) and takes a transaction
// advisory lock first, so concurrent runs wait for each other: run it in
// one transaction (as [Store.Migrate] does, and as a multi-statement
// script sent at once is). Identifiers are quoted, so any names are safe.
func MigrationSQL(schema, table string) string {
	n := newNames(schema, table)
	all := n.table + n.seq + n.index
	tag := "$fn$" // the functions' dollar quote, which no name may contain
	for i := 0; strings.Contains(all, tag); i++ {
		tag = "$fn" + strconv.Itoa(i) + "$"
	}
	r := strings.NewReplacer(
		"{table}", n.table, "{seqlit}", strings.ReplaceAll(n.seq, "'", "''"), "{seq}", n.seq,
		"{index}", n.index, "{claim}", n.claim, "{complete}", n.complete, "{release}", n.release,
		"{lock}", strconv.FormatInt(n.lockID, 10), "$fn$", tag,
	)
	return r.Replace(migration)
}

// Migrate runs [MigrationSQL] for the store's table, in one transaction.
// It is safe to call from every replica at start-up.
func (s *Store) Migrate(ctx context.Context) error {
	if s == nil || s.pool == nil {
		return errNoPool
	}
	// Without arguments pgx sends the script with the simple protocol: one
	// implicit transaction for all its statements.
	if _, err := s.pool.Exec(ctx, MigrationSQL(s.schema, s.table)); err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	return nil
}

// migration is the script MigrationSQL fills in.
//
// A row is one key. state is 1 (InFlight) or 2 (Completed); lease_until
// is set while InFlight; expires_at is when the row stops counting (lease
// plus grace, or retention) and may be swept. Times are the server's.
//
// The claim function first reads the key's row: a live one is the answer,
// without a lock or a write (a replay). Otherwise it inserts the key, or
// takes over a row whose lease lapsed or that expired (keeping created_at
// of a lapsed InFlight claim); when a concurrent claim won meanwhile it
// reads the row again in a statement of its own, which under READ
// COMMITTED sees the row that claim committed after the INSERT's
// snapshot; if that row was deleted meanwhile, it tries again.
// Each function first sets lock_timeout, for its transaction only, to the
// caller's remaining time, so that a call waiting on a row lock ends on
// the server when its caller gave up. The functions rely on READ
// COMMITTED, Postgres's default isolation level: under REPEATABLE READ or
// SERIALIZABLE a contended claim fails with a serialization error.
const migration = `SELECT pg_advisory_xact_lock({lock});

CREATE SEQUENCE IF NOT EXISTS {seq} AS bigint;

CREATE TABLE IF NOT EXISTS {table} (
	key         bytea       PRIMARY KEY,
	fingerprint bytea       NOT NULL,
	state       smallint    NOT NULL CHECK (state IN (1, 2)),
	token       bigint      NOT NULL,
	created_at  timestamptz NOT NULL,
	lease_until timestamptz,
	expires_at  timestamptz NOT NULL,
	status      integer,
	header      text,
	body        bytea
);

CREATE INDEX IF NOT EXISTS {index} ON {table} (expires_at);

CREATE OR REPLACE FUNCTION {claim}(p_key bytea, p_fp bytea, p_lease_us bigint, p_grace_us bigint, p_lock_ms bigint)
RETURNS TABLE (o_claimed boolean, o_fingerprint bytea, o_state smallint, o_token bigint,
	o_created_at timestamptz, o_lease_until timestamptz, o_status integer, o_header text, o_body bytea)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
	t timestamptz;
BEGIN
	IF p_lock_ms > 0 THEN
		PERFORM set_config('lock_timeout', p_lock_ms || 'ms', true);
	END IF;
	FOR attempt IN 1..100 LOOP
		t := clock_timestamp();
		-- A live row (Completed, or InFlight within its lease) is answered
		-- by a read alone: a replay takes no lock and writes nothing.
		RETURN QUERY
		SELECT false, r.fingerprint, r.state, r.token, r.created_at, r.lease_until, r.status, r.header, r.body
		FROM {table} AS r
		WHERE r.key = p_key AND r.expires_at > t AND (r.state = 2 OR r.lease_until > t);
		IF FOUND THEN
			RETURN;
		END IF;
		RETURN QUERY
		INSERT INTO {table} AS r (key, fingerprint, state, token, created_at, lease_until, expires_at)
		VALUES (p_key, p_fp, 1, nextval('{seqlit}'), t,
			t + p_lease_us * interval '1 microsecond',
			t + (p_lease_us + p_grace_us) * interval '1 microsecond')
		ON CONFLICT (key) DO UPDATE SET
			fingerprint = excluded.fingerprint,
			state = 1,
			token = excluded.token,
			created_at = CASE WHEN r.state = 1 AND r.expires_at > t THEN r.created_at ELSE t END,
			lease_until = excluded.lease_until,
			expires_at = excluded.expires_at,
			status = NULL, header = NULL, body = NULL
		WHERE r.expires_at <= t OR (r.state = 1 AND r.lease_until <= t)
		RETURNING true, NULL::bytea, r.state, r.token, r.created_at, r.lease_until, NULL::integer, NULL::text, NULL::bytea;
		IF FOUND THEN
			RETURN;
		END IF;
		RETURN QUERY
		SELECT false, r.fingerprint, r.state, r.token, r.created_at, r.lease_until, r.status, r.header, r.body
		FROM {table} AS r WHERE r.key = p_key;
		IF FOUND THEN
			RETURN;
		END IF;
	END LOOP;
	RAISE EXCEPTION 'toolerr idempotency claim: the row of the key kept vanishing';
END
$fn$;

CREATE OR REPLACE FUNCTION {complete}(p_key bytea, p_token bigint, p_status integer, p_header text, p_body bytea,
	p_retention_us bigint, p_lock_ms bigint)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
	IF p_lock_ms > 0 THEN
		PERFORM set_config('lock_timeout', p_lock_ms || 'ms', true);
	END IF;
	UPDATE {table} SET
		state = 2, lease_until = NULL,
		expires_at = clock_timestamp() + p_retention_us * interval '1 microsecond',
		status = p_status, header = p_header, body = p_body
	WHERE key = p_key AND state = 1 AND token = p_token AND expires_at > clock_timestamp();
	RETURN FOUND;
END
$fn$;

CREATE OR REPLACE FUNCTION {release}(p_key bytea, p_token bigint, p_lock_ms bigint)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
	IF p_lock_ms > 0 THEN
		PERFORM set_config('lock_timeout', p_lock_ms || 'ms', true);
	END IF;
	DELETE FROM {table}
	WHERE key = p_key AND state = 1 AND token = p_token AND expires_at > clock_timestamp();
	RETURN FOUND;
END
$fn$;
`
