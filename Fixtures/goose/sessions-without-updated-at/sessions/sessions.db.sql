-- A sessions table with running totals and a created_at but no updated_at column (as another tracker's
-- fixture of Goose's database has it): the database is read, not refused for the missing column.
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    model_config_json TEXT,
    provider_name TEXT,
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER
);
INSERT INTO sessions (id, name, working_dir, created_at, model_config_json, provider_name, total_tokens, input_tokens, output_tokens, accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens) VALUES ('20251103_1', 'CANARY session name', '/home/u/CANARY-goose', '2025-11-03 10:00:00', '{"model_name": "claude-sonnet-4-5-20250929", "context_limit": 200000}', 'anthropic', 950, 900, 50, 8600, 8000, 600);
INSERT INTO sessions (id, name, working_dir, created_at, model_config_json, provider_name, total_tokens, input_tokens, output_tokens, accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens) VALUES ('20251104_1', 'CANARY session name', '/home/u/CANARY-goose', '2025-11-04T07:30:00Z', '{"model_name": "gpt-4.1"}', 'openai', 2100, 2000, 100, 2100, 2000, 100);
