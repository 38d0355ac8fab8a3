/// The database schema, as numbered steps recorded in `PRAGMA user_version`.
///
/// A database at version *n* runs every step above *n*, in order, inside one immediate
/// transaction (``SQLiteDatabase``); a file from a newer studykit (a version above the last
/// step) is refused with ``CacheError/newerSchema(path:version:)``. To change the schema, append
/// a step with the next number — never edit a step that has shipped — so issues that add
/// tables extend the list without touching each other's steps.
enum SchemaMigrations {
    /// One step: the version it brings the file to and the SQL that does it.
    struct Step: Sendable {
        let version: Int
        let sql: String
    }

    /// Every step, in version order.
    static let steps: [Step] = [
        Step(
            version: 1,
            sql: """
                CREATE TABLE IF NOT EXISTS results (
                    key TEXT PRIMARY KEY NOT NULL,
                    task TEXT NOT NULL,
                    engine TEXT NOT NULL,
                    model TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    fitted TEXT,
                    created_at REAL NOT NULL
                );
                CREATE INDEX IF NOT EXISTS results_by_task ON results(task);
                CREATE TABLE IF NOT EXISTS counters (
                    name TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL
                );
                CREATE TABLE IF NOT EXISTS usage (
                    engine TEXT NOT NULL,
                    day TEXT NOT NULL,
                    tokens_in INTEGER NOT NULL,
                    tokens_out INTEGER NOT NULL,
                    requests INTEGER NOT NULL,
                    PRIMARY KEY (engine, day)
                );
                """),
        // The capability memory (``AttemptRecording``): one row per model attempt.
        Step(
            version: 2,
            sql: """
                CREATE TABLE IF NOT EXISTS attempts (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    engine TEXT NOT NULL,
                    model TEXT NOT NULL,
                    task TEXT NOT NULL,
                    job TEXT NOT NULL,
                    prompt_version TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    duration REAL NOT NULL,
                    tokens_in INTEGER NOT NULL,
                    tokens_out INTEGER NOT NULL,
                    at REAL NOT NULL
                );
                CREATE INDEX IF NOT EXISTS attempts_by_job ON attempts(engine, model, task, job, prompt_version, at);
                """),
        // What discovery learnt about each server (``DiscoveryRecords``): one row per base URL.
        Step(
            version: 3,
            sql: """
                CREATE TABLE IF NOT EXISTS discoveries (
                    server TEXT PRIMARY KEY NOT NULL,
                    payload TEXT NOT NULL,
                    discovered_at REAL NOT NULL
                );
                """),
        // Money (issue #14): every chat request whose body was sent is a row of `attempts` at
        // level 'request' beside the job rows ('job', the capability memory), with its HTTP
        // status and whether its tokens are an estimate; `reservations` holds the allowance of
        // requests in flight, taken in the same transaction as the quota check.
        Step(
            version: 4,
            sql: """
                ALTER TABLE attempts ADD COLUMN level TEXT NOT NULL DEFAULT 'job';
                ALTER TABLE attempts ADD COLUMN status INTEGER;
                ALTER TABLE attempts ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE IF NOT EXISTS reservations (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    engine TEXT NOT NULL,
                    day TEXT NOT NULL,
                    requests INTEGER NOT NULL,
                    tokens INTEGER NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX IF NOT EXISTS reservations_by_day ON reservations(engine, day);
                """),
        // A reservation's expiry: the request's deadline plus a margin. A process killed mid-call
        // (SIGKILL) never settles its reservation; past its expiry it no longer counts against
        // the quota. Rows from before this step have none and count for their day, as they did.
        // The table is rebuilt rather than altered, so the step also runs on a file whose
        // version was set back below it (ADD COLUMN would fail on the column being there).
        Step(
            version: 5,
            sql: """
                CREATE TABLE reservations_v5 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    engine TEXT NOT NULL,
                    day TEXT NOT NULL,
                    requests INTEGER NOT NULL,
                    tokens INTEGER NOT NULL,
                    created_at REAL NOT NULL,
                    expires_at REAL
                );
                INSERT INTO reservations_v5 (id, engine, day, requests, tokens, created_at)
                    SELECT id, engine, day, requests, tokens, created_at FROM reservations;
                DROP TABLE reservations;
                ALTER TABLE reservations_v5 RENAME TO reservations;
                CREATE INDEX IF NOT EXISTS reservations_by_day ON reservations(engine, day);
                """),
        // Beside the validated results, what a model answered one item job (judged again on
        // every use) and the part requests it failed: `kind` keeps them apart, so a result is
        // only ever a validated one and `cache stats` counts each. Rebuilt rather than altered,
        // as step 5 is, so it also runs on a file whose version was set back below it.
        Step(
            version: 6,
            sql: """
                CREATE TABLE results_v6 (
                    key TEXT PRIMARY KEY NOT NULL,
                    task TEXT NOT NULL,
                    engine TEXT NOT NULL,
                    model TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    fitted TEXT,
                    created_at REAL NOT NULL,
                    kind TEXT NOT NULL DEFAULT 'result'
                );
                INSERT INTO results_v6 (key, task, engine, model, payload, checksum, fitted, created_at)
                    SELECT key, task, engine, model, payload, checksum, fitted, created_at FROM results;
                DROP TABLE results;
                ALTER TABLE results_v6 RENAME TO results;
                CREATE INDEX IF NOT EXISTS results_by_task ON results(task);
                """),
    ]
}
