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

-- s1: a CLI session that switched model with /model. Its counters are the sum of its two main-loop rows; the
-- vision call (task 'vision') reached only session_model_usage.
-- One transaction, as the tool writes it: a reader never sees it half done, so a split run never cuts inside it.
BEGIN;
INSERT INTO sessions (id, source, model, model_config, system_prompt, started_at, message_count, tool_call_count,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cwd, git_branch,
    git_repo_root, billing_provider, billing_base_url, billing_mode, estimated_cost_usd, cost_status, title,
    last_activity_at, api_call_count)
VALUES ('20260303_100000_a1b2c3', 'cli', 'claude-sonnet-4-6', '{"temperature": 0.2}',
    'You are Hermes. CANARY system prompt', 1772532000.0, 9, 4, 3700, 2300, 38000, 4000, 600,
    '/home/u/CANARY-hermes-repo', 'CANARY-branch', '/home/u/CANARY-hermes-repo', 'anthropic',
    'https://api.anthropic.com', 'official_docs_snapshot', 0.1932, 'estimated', 'CANARY title', 1772534580.0, 5);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20260303_100000_a1b2c3', 'user', 'CANARY prompt: refactor the parser', 1772532010.0),
    ('20260303_100000_a1b2c3', 'assistant', 'CANARY reply', 1772532870.25);
INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES
    ('20260303_100000_a1b2c3', 'tool', 'CANARY tool output: /home/u/CANARY-hermes-repo/src', 'call_1', 'terminal', 1772533000.0);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20260303_100000_a1b2c3', 'assistant', 'CANARY final answer', 1772534580.0);
INSERT INTO session_model_usage VALUES
    ('20260303_100000_a1b2c3', 'claude-sonnet-4-6', 'anthropic', 'https://api.anthropic.com', 'official_docs_snapshot', '',
     3, 1200, 900, 30000, 4000, 0, 0.0819, 0, 'estimated', 'official_docs_snapshot', 1772532030.0, 1772532870.25),
    ('20260303_100000_a1b2c3', 'gpt-5.4', 'openai-api', 'https://api.openai.com/v1', 'official_docs_snapshot', '',
     2, 2500, 1400, 8000, 0, 600, 0.1113, 0, 'estimated', 'official_docs_snapshot', 1772533100.0, 1772534530.5),
    ('20260303_100000_a1b2c3', 'gemini-3-flash-preview', 'google', '', '', 'vision',
     1, 700, 120, 0, 0, 0, 0.0007, 0, 'estimated', 'official_docs_snapshot', 1772532065.0, 1772532065.0);
COMMIT;
-- s2: opened and closed without a call.
-- One transaction, as the tool writes it: a reader never sees it half done, so a split run never cuts inside it.
BEGIN;
INSERT INTO sessions (id, source, model, started_at, ended_at, end_reason, cwd, title)
VALUES ('20260303_110000_d4e5f6', 'cli', 'claude-sonnet-4-6', 1772535600.0, 1772535660.0, 'cli_close',
    '/home/u/CANARY-hermes-repo', 'CANARY empty session');
COMMIT;
