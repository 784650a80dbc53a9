-- ZCode CLI db.sqlite (columns as read by CodeBurn, schema verified there against db v0.14.8, and tokscale).
PRAGMA journal_mode = WAL;
CREATE TABLE session (
    id TEXT PRIMARY KEY,
    directory TEXT NOT NULL,
    path TEXT,
    title TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE model_usage (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    turn_id TEXT,
    model_id TEXT NOT NULL,
    agent TEXT,
    mode TEXT,
    status TEXT NOT NULL,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    cache_creation_input_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_input_tokens INTEGER NOT NULL DEFAULT 0,
    computed_total_tokens INTEGER,
    provider_total_tokens INTEGER,
    provider_metadata_json TEXT,
    error_message TEXT,
    started_at INTEGER NOT NULL,
    completed_at INTEGER,
    duration_ms INTEGER
);
CREATE TABLE tool_usage (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    turn_id TEXT,
    tool_name TEXT NOT NULL,
    input_json TEXT,
    started_at INTEGER NOT NULL,
    completed_at INTEGER
);
INSERT INTO session VALUES ('ses_11', '/home/u/CANARY-proof', NULL, 'CANARY prove the lemma', 1782129600000, 1782129783000);
-- Reasoning inside output: 2,000 + 1,500 = 3,500.
INSERT INTO model_usage VALUES ('mu_11', 'ses_11', 'turn_11', 'GLM-5.2', 'zcode-agent', 'yolo', 'completed',
    2000, 1500, 600, 0, 0, 3500, 3500, NULL, NULL, 1782129600000, 1782129610000, 10000);
-- Reasoning beside output: 3,000 + 400 + 250 = 3,650.
INSERT INTO model_usage VALUES ('mu_12', 'ses_11', 'turn_12', 'GLM-5.2', 'zcode-agent', 'yolo', 'completed',
    3000, 400, 250, 0, 0, 3650, 3650, NULL, NULL, 1782129660000, 1782129680000, 20000);
-- Input without the cache: 1,000 + 5,000 + 100 = 6,100.
INSERT INTO model_usage VALUES ('mu_13', 'ses_11', 'turn_13', 'GLM-5.2', 'zcode-agent', 'yolo', 'completed',
    1000, 100, 0, 0, 5000, 6100, 6100, NULL, NULL, 1782129720000, 1782129725000, 5000);
-- No total: read as OpenAI-style (7,000 − 6,000 = 1,000 input).
INSERT INTO model_usage VALUES ('mu_14', 'ses_11', 'turn_14', 'GLM-5.2', 'zcode-agent', 'yolo', 'completed',
    7000, 50, 0, 0, 6000, NULL, NULL, NULL, NULL, 1782129780000, 1782129783000, 3000);
