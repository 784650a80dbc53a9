-- Hermes Agent state.db, the tables the reader touches (columns as in hermes_state_common.py SCHEMA_SQL,
-- trimmed of the ones that play no part here).
PRAGMA journal_mode = WAL;
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    user_id TEXT,
    session_key TEXT,
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
    output_tokens INTEGER DEFAULT 0,
    cache_read_tokens INTEGER DEFAULT 0,
    cache_write_tokens INTEGER DEFAULT 0,
    reasoning_tokens INTEGER DEFAULT 0,
    cwd TEXT,
    git_branch TEXT,
    git_repo_root TEXT,
    billing_provider TEXT,
    billing_base_url TEXT,
    billing_mode TEXT,
    estimated_cost_usd REAL,
    actual_cost_usd REAL,
    cost_status TEXT,
    cost_source TEXT,
    title TEXT,
    last_activity_at REAL,
    api_call_count INTEGER DEFAULT 0,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
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
    finish_reason TEXT,
    reasoning TEXT
);
CREATE TABLE session_model_usage (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    billing_provider TEXT NOT NULL DEFAULT '',
    billing_base_url TEXT NOT NULL DEFAULT '',
    billing_mode TEXT NOT NULL DEFAULT '',
    task TEXT NOT NULL DEFAULT '',
    api_call_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    estimated_cost_usd REAL NOT NULL DEFAULT 0,
    actual_cost_usd REAL NOT NULL DEFAULT 0,
    cost_status TEXT,
    cost_source TEXT,
    first_seen REAL,
    last_seen REAL,
    PRIMARY KEY (session_id, model, billing_provider, billing_base_url, billing_mode, task)
);
CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
CREATE INDEX idx_session_model_usage_session ON session_model_usage(session_id);
INSERT INTO schema_version VALUES (30);

-- The named profile "work" keeps its own home and database.
-- One transaction, as the tool writes it: a reader never sees it half done, so a split run never cuts inside it.
BEGIN;
INSERT INTO sessions (id, source, model, started_at, message_count, input_tokens, output_tokens, cache_read_tokens,
    cache_write_tokens, reasoning_tokens, cwd, billing_provider, billing_base_url, billing_mode, title, api_call_count)
VALUES ('20260304_083000_0a0b0c', 'cli', 'deepseek-v4-flash', 1772613000.0, 4, 5000, 300, 20000, 0, 0,
    '/srv/CANARY-work', 'deepseek', 'https://api.deepseek.com', 'official_docs_snapshot', 'CANARY work title', 1);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20260304_083000_0a0b0c', 'user', 'CANARY prompt: summarise the logs', 1772613010.0),
    ('20260304_083000_0a0b0c', 'assistant', 'CANARY answer', 1772614500.0);
INSERT INTO session_model_usage VALUES
    ('20260304_083000_0a0b0c', 'deepseek-v4-flash', 'deepseek', 'https://api.deepseek.com', 'official_docs_snapshot', '',
     1, 5000, 300, 20000, 0, 0, 0.0008, 0, 'estimated', 'official_docs_snapshot', 1772614500.0, 1772614500.0);
COMMIT;
