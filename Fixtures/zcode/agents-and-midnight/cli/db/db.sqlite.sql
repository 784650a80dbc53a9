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
INSERT INTO session VALUES ('ses_21', '/home/u/CANARY-shop', NULL, 'CANARY checkout bug', 1775001580000, 1775001603000);
-- The main agent's request finishes half a second before midnight UTC; only the provider's total is recorded.
INSERT INTO model_usage VALUES ('mu_21', 'ses_21', 'turn_21', 'GLM-5.2', 'zcode-agent', 'yolo', 'completed',
    50000, 2000, 0, 1000, 45000, NULL, 52000, NULL, NULL, 1775001580000, 1775001599500, 19500);
-- A subagent's request, and a title request: calls of their own.
INSERT INTO model_usage VALUES ('mu_22', 'ses_21', 'turn_21', 'GLM-5-Air', 'explore-agent', 'yolo', 'completed',
    8000, 500, 0, 0, 0, 8500, 8500, NULL, NULL, 1775001590000, 1775001600200, 10200);
INSERT INTO model_usage VALUES ('mu_23', 'ses_21', NULL, 'GLM-4.5-Flash', 'title', NULL, 'completed',
    300, 12, 0, 0, 0, 312, 312, NULL, NULL, 1775001601000, 1775001602000, 1000);
-- Completed with nothing counted.
INSERT INTO model_usage VALUES ('mu_24', 'ses_21', 'turn_22', 'GLM-5.2', 'zcode-agent', 'yolo', 'completed',
    0, 0, 0, 0, 0, 0, 0, NULL, NULL, 1775001602000, 1775001603000, 1000);
INSERT INTO tool_usage VALUES ('tu_21', 'ses_21', 'turn_21', 'read', '{"path":"/home/u/CANARY-shop/cart.ts"}', 1775001599600, 1775001599700);
