-- Goose sessions.db with the per-call usage_ledger (schema 16 and later).
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
-- One transaction: the session row holds its final counters, which Goose derives from these ledger rows, so no
-- reader sees those counters without the rows (a split run never cuts inside it).
BEGIN;
INSERT INTO sessions (id, created_at, updated_at, provider_name, model_config_json, input_tokens, output_tokens, total_tokens, accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, accumulated_cache_read_tokens, accumulated_cache_write_tokens, accumulated_cost, working_dir, name, extension_data) VALUES ('20260210_1', '2026-02-10 09:59:00', '2026-02-10 10:05:00', 'anthropic', '{"model_name": "claude-sonnet-4-5", "context_limit": null, "temperature": null}', 5000, 500, 5500, 31000, 1250, 32250, 23000, 2000, 0.04, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
INSERT INTO sessions (id, session_type, parent_session_id, created_at, updated_at, provider_name, model_config_json, accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, accumulated_cost, working_dir, name, extension_data) VALUES ('20260210_2', 'sub_agent', '20260210_1', '2026-02-10 10:01:00', '2026-02-10 10:01:40', 'openai', '{"model_name": "gpt-5-mini", "context_limit": null, "temperature": null}', 4000, 200, 4200, 0.001, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('20260210_1', 'user', '[{"type": "text", "text": "CANARY prompt"}]', 1770717590);
INSERT INTO usage_ledger VALUES (1, '20260210_1', 1770717600, 'claude-sonnet-4-5', 12000, 300, 12300, 10000, 1500, 0.012, 'provider_reported', 0);
INSERT INTO usage_ledger VALUES (2, '20260210_1', 1770717660, '', 14000, 450, 14450, 13000, 500, 0.01, 'estimated', 0);
INSERT INTO usage_ledger VALUES (3, '20260210_2', 1770717700, 'gpt-5-mini', 4000, 200, 4200, 0, 0, 0.001, 'estimated', 0);
INSERT INTO usage_ledger VALUES (4, '20260210_1', 1770718000, 'claude-sonnet-4-5', 5000, 500, 5500, 0, 0, 0.018, 'estimated', 1);
INSERT INTO usage_ledger VALUES (5, '20260210_1', 1770804000, 'claude-sonnet-4-5', 0, 0, 0, 0, 0, 0, 'estimated', 0);
COMMIT;
