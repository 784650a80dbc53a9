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
INSERT INTO sessions VALUES ('amber-fox', '/home/u/CANARY-ledger', 'windsurf', 'adaptive', 'accept-edits',
    1784015940, 1784016300, 'CANARY fix the ledger', 3, 0, NULL);
INSERT INTO sessions VALUES ('ghost-owl', '/home/u/CANARY-hidden', 'windsurf', 'swe-1-6', 'normal',
    1784073600, 1784073630, 'CANARY deleted session', 1, 1, NULL);
INSERT INTO prompt_history (content, timestamp, session_id) VALUES ('CANARY fix the ledger tests', 1784015945, 'amber-fox');
INSERT INTO message_nodes (session_id, node_id, parent_node_id, chat_message, created_at) VALUES
 ('amber-fox', 1, NULL, '{"role":"system","content":"You are Devin. CANARY system prompt"}', 1784015940),
 ('amber-fox', 2, 1, '{"role":"user","content":"CANARY fix the ledger tests","metadata":{"is_user_input":true,"request_id":null,"metrics":null}}', 1784015945),
 ('amber-fox', 3, 2, '{"role":"assistant","content":"I will run the tests. CANARY","tool_calls":[{"id":"c0","name":"exec","arguments":{"command":"pytest CANARY/tests"},"index":0,"kind":"function"}],"metadata":{"request_id":"req_01J2R1","generation_model":"claude-sonnet-4-6","created_at":"2026-07-14T08:00:01.412Z","metrics":{"input_tokens":1200,"output_tokens":240,"cache_read_tokens":48000,"cache_creation_tokens":null,"total_time_ms":2846,"ttft_ms":610},"is_user_input":null,"num_tokens":240}}', 1784016002),
 ('amber-fox', 4, 2, '{"role":"assistant","content":"I will run the tests. CANARY","tool_calls":[{"id":"c0","name":"exec","arguments":{"command":"pytest CANARY/tests"},"index":0,"kind":"function"}],"metadata":{"request_id":"req_01J2R1","generation_model":"claude-sonnet-4-6","created_at":"2026-07-14T08:00:01.412Z","metrics":{"input_tokens":1200,"output_tokens":240,"cache_read_tokens":48000,"cache_creation_tokens":null,"total_time_ms":2846,"ttft_ms":610},"is_user_input":null,"num_tokens":240}}', 1784016002),
 ('amber-fox', 5, 3, '{"role":"tool","content":"CANARY 3 failed, 41 passed","tool_call_id":"c0"}', 1784016010),
 ('amber-fox', 6, 5, '{"role":"user","content":"continue","metadata":{"is_user_input":null,"request_id":null,"metrics":null}}', 1784016200),
 ('amber-fox', 7, 6, '{"role":"assistant","content":"","metadata":{"request_id":"req_01J2R2","generation_model":"swe-1-6","created_at":"2026-07-14T08:03:20Z","metrics":{"input_tokens":30,"output_tokens":5,"cache_read_tokens":null,"cache_creation_tokens":5200},"is_user_input":null}}', 1784016201),
 ('amber-fox', 8, 2, '{"role":"assistant","content":"Another approach. CANARY","metadata":{"request_id":"req_01J2R3","generation_model":"gpt-5-3-codex","created_at":"2026-07-14T08:04:00Z","metrics":{"input_tokens":900,"output_tokens":60,"cache_read_tokens":2000,"cache_creation_tokens":null}}}', 1784016240),
 ('amber-fox', 9, 7, '{"role":"assistant","content":"CANARY summary of the conversation","metadata":{"request_id":"req_01J2R4","generation_model":"compactor","created_at":"2026-07-14T08:04:30Z","metrics":{"input_tokens":7000,"output_tokens":800,"cache_read_tokens":null,"cache_creation_tokens":null}}}', 1784016270),
 ('amber-fox', 10, 9, '{"role":"assistant","content":"Done. CANARY","metadata":{"generation_model":"claude-sonnet-4-6","created_at":"2026-07-14T08:04:50Z","metrics":{"input_tokens":50,"output_tokens":10}}}', 1784016290),
 ('amber-fox', 11, 10, '{"role":"assistant","content":"","metadata":{"request_id":"req_01J2R6","generation_model":"claude-sonnet-4-6","created_at":"2026-07-14T08:05:00Z","finish_reason":"error","metrics":null}}', 1784016300),
 ('amber-fox', 12, 11, '{"role":"assistant","content":"CANARY half-written', 1784016300),
 ('ghost-owl', 1, NULL, '{"role":"assistant","content":"CANARY hidden answer","metadata":{"request_id":"req_02G1","metrics":{"input_tokens":400,"output_tokens":20,"cache_read_tokens":0,"cache_creation_tokens":null}}}', 1784073630);
INSERT INTO tool_call_state VALUES ('amber-fox', 'c0', '{"command":"pytest CANARY/tests"}', '{"status":"completed"}');
