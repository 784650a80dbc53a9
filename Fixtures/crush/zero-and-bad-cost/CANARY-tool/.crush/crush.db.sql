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
-- z1 never reached a model (cost 0); z2's cost is not a number (a damaged row); z4 is a child of z3.
INSERT INTO sessions VALUES ('z1', NULL, 'CANARY untitled', 1, 0, 0, 0.0, 1770710400, 1770710400);
INSERT INTO sessions VALUES ('z2', NULL, 'CANARY damaged', 4, 100, 10, 'n/a', 1770714000, 1770710400);
INSERT INTO sessions VALUES ('z3', NULL, 'CANARY real work', 12, 40000, 600, 0.75, 1770717600, 1770710400);
INSERT INTO sessions VALUES ('z4', 'z3', 'CANARY subtask', 3, 4000, 60, 0.3, 1770721200, 1770714000);
INSERT INTO messages VALUES ('m1', 'z3', 'assistant', '[]', 'claude-sonnet-4-5', 1770710500, 1770710500, 1770710500);
