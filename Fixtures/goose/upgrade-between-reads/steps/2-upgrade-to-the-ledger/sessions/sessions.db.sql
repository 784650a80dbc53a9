-- Step 2, applied to step 1's database: Goose upgrades it to the ledger (schema 16), and the session is resumed.
CREATE TABLE usage_ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    created_timestamp INTEGER NOT NULL,
    model TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    total_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_write_tokens INTEGER,
    cost REAL,
    cost_source TEXT,
    is_compaction INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_usage_ledger_session ON usage_ledger(session_id);
INSERT INTO schema_version (version) VALUES (16);
-- One transaction: the resumed session's old total as a carried_forward row, its new call, and its counters,
-- which now add both up.
BEGIN;
INSERT INTO usage_ledger VALUES (1, '20251202_1', 1771149600, 'gpt-4o', 8000, 600, 8600, 0, 0, 0.05, 'carried_forward', 0);
INSERT INTO usage_ledger VALUES (2, '20251202_1', 1771149660, 'gpt-4o', 9000, 150, 9150, 8000, 500, 0.004, 'provider_reported', 0);
UPDATE sessions SET accumulated_input_tokens = 17000, accumulated_output_tokens = 750, accumulated_total_tokens = 17750,
    accumulated_cache_read_tokens = 8000, accumulated_cache_write_tokens = 500, input_tokens = 9000, output_tokens = 150,
    total_tokens = 9150, updated_at = '2026-02-15 10:01:00' WHERE id = '20251202_1';
COMMIT;
