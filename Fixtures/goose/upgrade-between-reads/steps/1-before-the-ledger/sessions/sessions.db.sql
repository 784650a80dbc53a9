-- Step 1: a sessions.db from before the ledger (schema 15): running totals in the sessions row only.
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
INSERT INTO schema_version (version) VALUES (15);
INSERT INTO sessions (id, created_at, updated_at, provider_name, model_config_json, input_tokens, output_tokens, total_tokens, accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, working_dir, name, extension_data) VALUES ('20251202_1', '2025-12-02 09:00:00', '2025-12-02 10:00:00', 'openai', '{"model_name": "gpt-4o", "context_limit": null, "temperature": null}', 5000, 400, 5400, 8000, 600, 8600, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
