-- Devin CLI sessions.db (tables as seen by CodeBurn's and cctop's readers; columns this case does not need
-- trimmed).
PRAGMA journal_mode = WAL;
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    working_directory TEXT NOT NULL,
    backend_type TEXT,
    model TEXT NOT NULL,
    agent_mode TEXT,
    created_at INTEGER NOT NULL,
    last_activity_at INTEGER NOT NULL,
    title TEXT,
    main_chain_id INTEGER,
    hidden INTEGER NOT NULL DEFAULT 0,
    metadata TEXT
);
CREATE TABLE prompt_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    content TEXT NOT NULL,
    timestamp INTEGER NOT NULL,
    session_id TEXT NOT NULL,
    is_shell INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE message_nodes (
    row_id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    node_id INTEGER NOT NULL,
    parent_node_id INTEGER,
    chat_message TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    metadata TEXT,
    UNIQUE(session_id, node_id)
);
CREATE TABLE tool_call_state (
    session_id TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    tool_call_json TEXT,
    tool_call_update_json TEXT
);
INSERT INTO sessions VALUES ('amber-fox', '/home/u/CANARY-api', 'windsurf', 'claude-opus-4-8', 'normal',
    1788256800, 1788257100, 'CANARY tidy the api', 2, 0, NULL);
INSERT INTO message_nodes (session_id, node_id, parent_node_id, chat_message, created_at) VALUES
 ('amber-fox', 1, NULL, '{"role":"user","content":"CANARY tidy the api","metadata":{"is_user_input":true}}', 1788256800),
 ('amber-fox', 2, 1, '{"role":"assistant","content":"CANARY plan","metadata":{"request_id":"req_9A1","generation_model":"claude-opus-4-8","created_at":"2026-09-01T09:20:05Z","metrics":{"input_tokens":1200,"output_tokens":240,"cache_read_tokens":48000,"cache_creation_tokens":null}}}', 1788256805),
 ('amber-fox', 3, 2, '{"role":"assistant","content":"CANARY done","metadata":{"request_id":"req_9A2","generation_model":"claude-opus-4-8","created_at":"2026-09-01T09:24:40Z","metrics":{"input_tokens":300,"output_tokens":80,"cache_read_tokens":50000,"cache_creation_tokens":2000}}}', 1788257080);
