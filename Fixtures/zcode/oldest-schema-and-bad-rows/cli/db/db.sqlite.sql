-- An older ZCode database (shape assumed from tokscale's legacy query): no status, no total columns.
PRAGMA journal_mode = WAL;
CREATE TABLE session (id TEXT PRIMARY KEY, directory TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE model_usage (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    turn_id TEXT,
    model_id TEXT NOT NULL,
    agent TEXT,
    mode TEXT,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    cache_creation_input_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_input_tokens INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER NOT NULL,
    completed_at INTEGER,
    duration_ms INTEGER
);
INSERT INTO session VALUES ('ses_old', '/home/u/CANARY-legacy', 1770714000000);
INSERT INTO model_usage VALUES ('mu_o1', 'ses_old', 't1', 'GLM-4.6', 'zcode-agent', 'ask',
    12000, 700, 0, 0, 10000, 1770714000000, 1770714008000, 8000);
-- Never stamped complete: dated by its start. No model recorded.
INSERT INTO model_usage VALUES ('mu_o2', 'ses_old', 't2', '', 'zcode-agent', 'ask',
    3000, 100, 0, 0, 0, 1770714300000, NULL, NULL);
-- A damaged count.
INSERT INTO model_usage VALUES ('mu_o3', 'ses_old', 't3', 'GLM-4.6', 'zcode-agent', 'ask',
    'n/a', 40, 0, 0, 0, 1770714360000, 1770714362000, 2000);
