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
INSERT INTO session VALUES ('ses_01', '/home/u/CANARY-zapp', '/home/u/CANARY-zapp', 'CANARY fix login', 1781949600000, 1781949960000);
INSERT INTO session VALUES ('ses_02', '/home/u/CANARY-notes', NULL, 'CANARY notes', 1782030600000, 1782030604000);
-- Two requests of one turn: input holds the cache (36,000 = 4,000 fresh + 32,000 read), total = input + output.
INSERT INTO model_usage VALUES ('mu_01', 'ses_01', 'turn_01', 'GLM-5.2', 'zcode-agent', 'yolo', 'completed',
    36000, 1200, 0, 0, 32000, 37200, 37200, '{"usage":{"input_tokens":4000,"cache_read_input_tokens":32000}}', NULL,
    1781949600000, 1781949606000, 6000);
INSERT INTO model_usage VALUES ('mu_02', 'ses_01', 'turn_01', 'GLM-5.2', 'zcode-agent', 'yolo', 'completed',
    40500, 800, 0, 2000, 36000, 41300, 41300, NULL, NULL, 1781949609000, 1781949615000, 6000);
-- Still streaming when the database was read: its counts are not final.
INSERT INTO model_usage VALUES ('mu_03', 'ses_01', 'turn_02', 'GLM-5-Turbo', 'zcode-agent', 'yolo', 'running',
    12000, 40, 0, 0, 0, NULL, NULL, NULL, NULL, 1781949900000, NULL, NULL);
INSERT INTO model_usage VALUES ('mu_04', 'ses_01', 'turn_02', 'GLM-5.2', 'zcode-agent', 'yolo', 'error',
    0, 0, 0, 0, 0, 0, NULL, NULL, 'CANARY 429 from https://CANARY.example/api', 1781949900000, 1781949902000, 2000);
INSERT INTO model_usage VALUES ('mu_05', 'ses_01', 'turn_03', 'GLM-5.2', 'zcode-agent', 'yolo', 'cancelled',
    0, 0, 0, 0, 0, 0, NULL, NULL, NULL, 1781949960000, 1781949961000, 1000);
INSERT INTO model_usage VALUES ('mu_06', 'ses_02', 'turn_04', 'glm-5-turbo', 'zcode-agent', 'ask', 'completed',
    900, 300, 0, 0, 0, 1200, 1200, NULL, NULL, 1782030600000, 1782030604000, 4000);
INSERT INTO tool_usage VALUES ('tu_01', 'ses_01', 'turn_01', 'bash', '{"command":"npm test CANARY"}', 1781949606500, 1781949608000);
