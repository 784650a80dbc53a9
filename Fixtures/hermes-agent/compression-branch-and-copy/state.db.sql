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

-- p1 ended by context compression. The summary call is an auxiliary task: it reached only the model table.
-- One transaction, as the tool writes it: a reader never sees it half done, so a split run never cuts inside it.
BEGIN;
INSERT INTO sessions (id, source, model, started_at, ended_at, end_reason, message_count, input_tokens,
    output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cwd, title, api_call_count)
VALUES ('20260601_130000_p1p1p1', 'cli', 'claude-sonnet-4-6', 1780318800.0, 1780321860.0, 'compression', 40,
    2000, 400, 50000, 3000, 0, '/home/u/CANARY-hermes-repo', 'CANARY long session', 8);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20260601_130000_p1p1p1', 'user', 'CANARY prompt before compression', 1780318810.0),
    ('20260601_130000_p1p1p1', 'assistant', 'CANARY answer before compression', 1780321800.0);
INSERT INTO session_model_usage VALUES
    ('20260601_130000_p1p1p1', 'claude-sonnet-4-6', 'anthropic', 'https://api.anthropic.com', 'official_docs_snapshot', '',
     8, 2000, 400, 50000, 3000, 0, 0.0387, 0, 'estimated', 'official_docs_snapshot', 1780318900.0, 1780321800.0),
    ('20260601_130000_p1p1p1', 'claude-haiku-4-5', 'anthropic', '', '', 'compression',
     1, 40000, 1500, 0, 0, 0, 0.0475, 0, 'estimated', 'official_docs_snapshot', 1780321860.0, 1780321860.0);
COMMIT;
-- c1 continues p1 after compression. Its row starts at zero: the compression child copies no counters.
-- One transaction, as the tool writes it: a reader never sees it half done, so a split run never cuts inside it.
BEGIN;
INSERT INTO sessions (id, source, model, parent_session_id, started_at, message_count, input_tokens, output_tokens,
    cache_read_tokens, cache_write_tokens, reasoning_tokens, cwd, title, api_call_count)
VALUES ('20260601_135200_c1c1c1', 'cli', 'claude-sonnet-4-6', '20260601_130000_p1p1p1', 1780321920.0, 6, 900, 250,
    30000, 1000, 0, '/home/u/CANARY-hermes-repo', 'CANARY long session #2', 3);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20260601_135200_c1c1c1', 'user', 'CANARY summary of the earlier turns', 1780321920.0),
    ('20260601_135200_c1c1c1', 'assistant', 'CANARY answer after compression', 1780324200.0);
INSERT INTO session_model_usage VALUES
    ('20260601_135200_c1c1c1', 'claude-sonnet-4-6', 'anthropic', 'https://api.anthropic.com', 'official_docs_snapshot', '',
     3, 900, 250, 30000, 1000, 0, 0.0152, 0, 'estimated', 'official_docs_snapshot', 1780322000.0, 1780324200.0);
COMMIT;
-- b1: a /branch copy of p1. It copies the conversation and the model, never the counters.
-- One transaction, as the tool writes it: a reader never sees it half done, so a split run never cuts inside it.
BEGIN;
INSERT INTO sessions (id, source, model, model_config, parent_session_id, started_at, message_count, input_tokens,
    output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, title, api_call_count)
VALUES ('20260602_090000_b1b1b1', 'cli', 'gpt-5.4', '{"_branched_from": "20260601_130000_p1p1p1"}',
    '20260601_130000_p1p1p1', 1780390800.0, 3, 600, 100, 0, 0, 40, 'CANARY long session (branch)', 1);
INSERT INTO messages (session_id, role, content, timestamp) VALUES
    ('20260602_090000_b1b1b1', 'user', 'CANARY prompt in the branch', 1780390810.0),
    ('20260602_090000_b1b1b1', 'assistant', 'CANARY branch answer', 1780391700.0);
INSERT INTO session_model_usage VALUES
    ('20260602_090000_b1b1b1', 'gpt-5.4', 'openai-api', 'https://api.openai.com/v1', 'official_docs_snapshot', '',
     1, 600, 100, 0, 0, 40, 0.0025, 0, 'estimated', 'official_docs_snapshot', 1780391700.0, 1780391700.0);
COMMIT;
