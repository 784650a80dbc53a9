-- An early Hermes state.db (shape assumed): session totals with input and output only, no cache or reasoning
-- columns, and no session_model_usage table yet.
PRAGMA journal_mode = WAL;
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    user_id TEXT,
    model TEXT,
    model_config TEXT,
    system_prompt TEXT,
    parent_session_id TEXT,
    started_at REAL NOT NULL,
    ended_at REAL,
    end_reason TEXT,
    message_count INTEGER DEFAULT 0,
    tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content TEXT,
    tool_call_id TEXT,
    tool_calls TEXT,
    tool_name TEXT,
    timestamp REAL NOT NULL,
    token_count INTEGER,
    finish_reason TEXT
);
INSERT INTO schema_version VALUES (4);
INSERT INTO sessions (id, source, model, system_prompt, started_at, ended_at, end_reason, message_count,
    input_tokens, output_tokens)
VALUES ('20251120_090000_aa11bb', 'cli', 'anthropic/claude-sonnet-4', 'CANARY system prompt', 1763629200.0,
    1763631700.0, 'cli_close', 14, 42000, 3100);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20251120_090000_aa11bb', 'user', 'CANARY prompt about /home/u/CANARY-project', 1763629210.0),
    ('20251120_090000_aa11bb', 'assistant', 'CANARY answer', 1763631600.0);
-- Started before midnight UTC; its last message is after it.
INSERT INTO sessions (id, source, model, started_at, message_count, input_tokens, output_tokens)
VALUES ('20251121_235000_cc22dd', 'cli', 'openai/gpt-4.1', 1763769000.0, 2, 800, 150);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20251121_235000_cc22dd', 'user', 'CANARY late-night prompt', 1763769010.0),
    ('20251121_235000_cc22dd', 'assistant', 'CANARY late-night answer', 1763770800.0);
-- Counters never written (NULL): no usage, not zero.
INSERT INTO sessions (id, source, model, started_at, input_tokens, output_tokens)
VALUES ('20251122_100000_ee33ff', 'cli', 'openai/gpt-4.1', 1763805600.0, NULL, NULL);
