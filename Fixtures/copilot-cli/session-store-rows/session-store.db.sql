-- Copilot CLI session-store.db (schema_version 8): one assistant_usage_events row per model call.
PRAGMA journal_mode = WAL;
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (8);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    cwd TEXT,
    repository TEXT,
    branch TEXT,
    summary TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    turn_index INTEGER NOT NULL,
    user_message TEXT,
    assistant_response TEXT,
    timestamp TEXT NOT NULL
);
CREATE TABLE assistant_usage_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    turn_index INTEGER,
    model TEXT,
    copilot_usage_model TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_write_tokens INTEGER,
    reasoning_tokens INTEGER,
    token_details_json TEXT,
    total_nano_aiu INTEGER,
    request_multiplier REAL,
    duration_ms REAL,
    time_to_first_token_ms REAL,
    finish_reason TEXT,
    initiator TEXT,
    agent_id TEXT,
    parent_tool_call_id TEXT,
    created_at TEXT NOT NULL
);
INSERT INTO sessions VALUES ('5d1c2b3a-0000-4000-8000-000000000013', '/home/CANARY/work/CANARY-app', 'CANARY/CANARY-app', 'CANARY-branch', 'CANARY summary', '2026-06-14T10:00:00.000Z', '2026-06-14T10:30:00.000Z');
INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp) VALUES ('5d1c2b3a-0000-4000-8000-000000000013', 0, 'CANARY go on', 'CANARY done', '2026-06-14T10:20:00.000Z');
INSERT INTO assistant_usage_events (session_id, turn_index, model, copilot_usage_model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, token_details_json, total_nano_aiu, request_multiplier, duration_ms, time_to_first_token_ms, finish_reason, initiator, agent_id, parent_tool_call_id, created_at) VALUES ('5d1c2b3a-0000-4000-8000-000000000013', 0, 'claude-sonnet-4.5', 'claude-sonnet-4.5', 80000, 1200, 70000, 3000, 0, '{"input":{"tokenCount":7000}}', 412000000, 1.0, 9100.5, 820.0, 'stop', 'user', NULL, NULL, '2026-06-14T10:20:00.000Z');
INSERT INTO sessions VALUES ('5d1c2b3a-0000-4000-8000-000000000014', '/home/CANARY/work/CANARY-app', 'CANARY/CANARY-app', 'CANARY-branch', NULL, '2026-06-14T10:55:00.000Z', '2026-06-14T11:02:00.000Z');
INSERT INTO assistant_usage_events (session_id, turn_index, model, copilot_usage_model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, token_details_json, total_nano_aiu, request_multiplier, duration_ms, time_to_first_token_ms, finish_reason, initiator, agent_id, parent_tool_call_id, created_at) VALUES ('5d1c2b3a-0000-4000-8000-000000000014', 0, 'gpt-5.2', NULL, 12000, 400, 8000, 0, 100, NULL, NULL, 1.0, 4200.0, 610.0, 'tool_calls', NULL, NULL, NULL, '2026-06-14T11:00:00.000Z');
INSERT INTO assistant_usage_events (session_id, turn_index, model, copilot_usage_model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, token_details_json, total_nano_aiu, request_multiplier, duration_ms, time_to_first_token_ms, finish_reason, initiator, agent_id, parent_tool_call_id, created_at) VALUES ('5d1c2b3a-0000-4000-8000-000000000014', 0, 'gpt-5.2', NULL, 15000, 600, 10000, 0, 150, NULL, NULL, 1.0, 5100.0, 640.0, 'stop', NULL, NULL, NULL, '2026-06-14T11:02:00.000Z');
