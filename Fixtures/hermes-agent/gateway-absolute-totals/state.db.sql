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

-- g1: a Telegram session run by the gateway. The gateway sets the counters to its agent's running totals
-- (absolute), which never reach session_model_usage; only the title call (an auxiliary task) has a row.
INSERT INTO sessions (id, source, user_id, session_key, model, started_at, message_count, input_tokens,
    output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, billing_provider, billing_base_url,
    billing_mode, actual_cost_usd, cost_status, title, api_call_count)
VALUES ('20260512_180000_g1g1g1', 'telegram', 'CANARY-telegram-user', 'telegram:CANARY-chat', 'claude-opus-4-8',
    1778608800.0, 12, 15000, 2200, 90000, 6000, 900, 'anthropic', 'https://api.anthropic.com',
    'official_docs_snapshot', 0.3310, 'actual', 'CANARY chat title', 6);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20260512_180000_g1g1g1', 'user', 'CANARY message from the chat', 1778608805.0),
    ('20260512_180000_g1g1g1', 'assistant', 'CANARY reply to the chat', 1778612700.0);
INSERT INTO session_model_usage VALUES
    ('20260512_180000_g1g1g1', 'claude-haiku-4-5', 'anthropic', '', '', 'title_generation',
     1, 300, 20, 0, 0, 0, 0.0004, 0, 'estimated', 'official_docs_snapshot', 1778608860.0, 1778608860.0);
-- g2: the same gateway wrote one per-call delta (which reached the model table), then absolute totals that
-- include it: the counters exceed the model row.
INSERT INTO sessions (id, source, model, started_at, message_count, input_tokens, output_tokens,
    cache_read_tokens, cache_write_tokens, reasoning_tokens, billing_provider, title, api_call_count)
VALUES ('20260512_200000_g2g2g2', 'discord', 'claude-opus-4-8', 1778616000.0, 6, 4000, 500, 12000, 0, 0,
    'anthropic', 'CANARY discord thread', 3);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20260512_200000_g2g2g2', 'user', 'CANARY discord question', 1778616005.0),
    ('20260512_200000_g2g2g2', 'assistant', 'CANARY discord answer', 1778617800.0);
INSERT INTO session_model_usage VALUES
    ('20260512_200000_g2g2g2', 'claude-opus-4-8', 'anthropic', 'https://api.anthropic.com', 'official_docs_snapshot', '',
     1, 1000, 200, 5000, 0, 0, 0.0125, 0, 'estimated', 'official_docs_snapshot', 1778616600.0, 1778616600.0);
-- c1: a cron job that has not run a call yet.
INSERT INTO sessions (id, source, model, started_at, title)
VALUES ('20260512_210000_c1c1c1', 'cron', 'claude-opus-4-8', 1778619600.0, 'CANARY nightly job');
