-- Goose sessions.db before the ledger (schema 13): running totals per session.
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

INSERT INTO schema_version (version) VALUES (13);
INSERT INTO sessions (id, created_at, updated_at, provider_name, model_config_json, input_tokens, output_tokens, total_tokens, accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, accumulated_cost, working_dir, name, extension_data) VALUES ('20251105_1', '2025-11-05 09:00:00', '2025-11-05 11:30:00', 'openai', '{"model_name": "gpt-4o", "context_limit": null, "temperature": null}', 900, 120, 1020, 15000, 2100, 17100, 0.21, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
INSERT INTO sessions (id, created_at, updated_at, provider_name, model_config_json, input_tokens, output_tokens, total_tokens, accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, working_dir, name, extension_data) VALUES ('20251106_1', '2025-11-06T07:50:00.000000+00:00', '2025-11-06T09:15:00.123456+01:00', 'anthropic', '{"model_name": "claude-sonnet-4-5", "context_limit": null, "temperature": null}', 2500, 40, 2540, 40000, 800, 40800, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
INSERT INTO sessions (id, created_at, updated_at, input_tokens, output_tokens, total_tokens, working_dir, name, extension_data) VALUES ('20251001_1', '2025-10-01 11:00:00', '2025-10-01 12:00:00', 3000, 200, 3200, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
INSERT INTO sessions (id, created_at, updated_at, provider_name, model_config_json, working_dir, name, extension_data) VALUES ('20251107_1', '2025-11-07 08:00:00', '2025-11-07 08:00:00', 'openai', '{"model_name": "gpt-4o", "context_limit": null, "temperature": null}', '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
INSERT INTO sessions (id, created_at, updated_at, provider_name, model_config_json, input_tokens, output_tokens, total_tokens, accumulated_input_tokens, accumulated_output_tokens, accumulated_total_tokens, working_dir, name, extension_data) VALUES ('20251107_2', '2025-11-07 09:00:00', '2025-11-07 09:00:01', 'openai', '{"model_name": "gpt-4o", "context_limit": null, "temperature": null}', 0, 0, 0, 0, 0, 0, '/home/u/CANARY-goose', 'CANARY session name', '{"todo.v0": {"content": "CANARY todo"}}');
INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('20251105_1', 'user', '[{"type": "text", "text": "CANARY prompt"}]', 1762333200);
