-- A sessions.db upgraded to the ledger, with sessions from before it.
PRAGMA journal_mode = WAL;
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT
);
CREATE INDEX idx_messages_session ON messages(session_id);
CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);

ALTER TABLE sessions ADD COLUMN provider_name TEXT;
ALTER TABLE sessions ADD COLUMN model_config_json TEXT;
ALTER TABLE messages ADD COLUMN message_id TEXT;
ALTER TABLE sessions ADD COLUMN goose_mode TEXT NOT NULL DEFAULT 'auto';
ALTER TABLE sessions ADD COLUMN thread_id TEXT;
ALTER TABLE sessions ADD COLUMN archived_at TIMESTAMP;
ALTER TABLE sessions ADD COLUMN project_id TEXT;
ALTER TABLE sessions ADD COLUMN accumulated_cost REAL;

ALTER TABLE sessions ADD COLUMN cache_read_tokens INTEGER;
ALTER TABLE sessions ADD COLUMN cache_write_tokens INTEGER;
ALTER TABLE sessions ADD COLUMN accumulated_cache_read_tokens INTEGER;
ALTER TABLE sessions ADD COLUMN accumulated_cache_write_tokens INTEGER;
ALTER TABLE sessions ADD COLUMN parent_session_id TEXT;
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
INSERT INTO sessions (id, created_at, updated_at, provider_name, model_config_json, input_tokens, output_tokens, total_tokens, accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, working_dir, name, extension_data) VALUES ('20251201_1', '2025-12-01 09:00:00', '2025-12-01 10:00:00', 'openai', '{"model_name": "gpt-4o", "context_limit": null, "temperature": null}', 1000, 50, 1050, 20000, 1000, 21000, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
-- One transaction: the session row holds its final counters, which Goose derives from these ledger rows, so no
-- reader sees those counters without the rows (a split run never cuts inside it).
BEGIN;
INSERT INTO sessions (id, created_at, updated_at, provider_name, model_config_json, input_tokens, output_tokens, total_tokens, accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, accumulated_cache_read_tokens, accumulated_cache_write_tokens, working_dir, name, extension_data) VALUES ('20251202_1', '2025-12-02 09:00:00', '2026-02-15 10:01:00', 'openai', '{"model_name": "gpt-4o", "context_limit": null, "temperature": null}', 9000, 150, 9150, 17000, 750, 17750, 8000, 500, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
INSERT INTO usage_ledger VALUES (1, '20251202_1', 1771149600, 'gpt-4o', 8000, 600, 8600, 0, 0, 0.05, 'carried_forward', 0);
INSERT INTO usage_ledger VALUES (2, '20251202_1', 1771149660, 'gpt-4o', 9000, 150, 9150, 8000, 500, 0.004, 'provider_reported', 0);
COMMIT;
-- One transaction: the session row holds its final counters, which Goose derives from these ledger rows, so no
-- reader sees those counters without the rows (a split run never cuts inside it).
BEGIN;
INSERT INTO sessions (id, created_at, updated_at, provider_name, model_config_json, input_tokens, output_tokens, total_tokens, accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, working_dir, name, extension_data) VALUES ('20260215_1', '2026-02-15 10:59:00', '2026-02-15 11:00:05', 'anthropic', '{"model_name": "claude-haiku-4-5", "context_limit": null, "temperature": null}', 2000, 100, 2100, 2000, 100, 2100, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
INSERT INTO usage_ledger VALUES (3, '20260215_1', 1771153200, 'claude-haiku-4-5', 2000, 100, 2100, 0, 0, 0.002, 'estimated', 0);
COMMIT;
