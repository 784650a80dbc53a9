CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts BLOB NOT NULL DEFAULT '[]',
    model TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER
);
-- sa switched models mid-session: its latest assistant message with a model names it (an empty model is
-- skipped, a later user message has none). sb has no assistant message; sc's model is not a model id.
INSERT INTO sessions VALUES ('sa', NULL, 'CANARY explore', 9, 14000, 220, 0.5, 1777593599, 1777579200);
INSERT INTO sessions VALUES ('sb', NULL, 'CANARY cancelled at once', 1, 0, 0, 0.25, 1777593600, 1777593000);
INSERT INTO sessions VALUES ('sc', NULL, 'CANARY local model', 3, 2000, 50, 0.125, 1777636800, 1777636000);
INSERT INTO messages VALUES ('a1', 'sa', 'assistant', '[]', 'claude-opus-4-1', 100, 100, 100);
INSERT INTO messages VALUES ('a2', 'sa', 'assistant', '[]', 'claude-sonnet-4-5', 200, 200, 200);
INSERT INTO messages VALUES ('a3', 'sa', 'assistant', '[]', '', 250, 250, 250);
INSERT INTO messages VALUES ('a4', 'sa', 'user', '[{"type":"text","data":{"text":"CANARY question"}}]', NULL, 300, 300, NULL);
INSERT INTO messages VALUES ('b1', 'sb', 'user', '[{"type":"text","data":{"text":"CANARY question"}}]', NULL, 1777593000, 1777593000, NULL);
INSERT INTO messages VALUES ('c1', 'sc', 'assistant', '[]', 'local/CANARY private build', 1777636100, 1777636100, 1777636100);
