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
-- The same session id as in the api project: ids are named per database, so both count.
INSERT INTO sessions VALUES ('s1', NULL, 'CANARY restyle the header', 8, 12000, 300, 0.25, 1770717600, 1770714000);
INSERT INTO sessions VALUES ('s2', NULL, 'CANARY update deps', 4, 5000, 90, 0.125, 1770721200, 1770717600);
INSERT INTO messages VALUES ('m1', 's1', 'assistant', '[]', 'claude-sonnet-4-5', 1770714100, 1770714100, 1770714100);
INSERT INTO messages VALUES ('m2', 's2', 'assistant', '[]', 'claude-sonnet-4-5', 1770717700, 1770717700, 1770717700);
