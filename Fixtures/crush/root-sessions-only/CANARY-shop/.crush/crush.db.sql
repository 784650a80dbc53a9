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
-- Two root sessions. s-a spawned a subagent session (s-a-task), which spawned one more (s-a-task-sub):
-- Crush adds each child's cost to its parent's, so s-a's 0.37 already holds the children's 0.12 and 0.02.
-- prompt_tokens/completion_tokens are the last step's gauge and are not read.
INSERT INTO sessions VALUES ('s-a', NULL, 'CANARY refactor the checkout', 14, 23000, 410, 0.37, 1772445600, 1772442000);
INSERT INTO sessions VALUES ('s-a-task', 's-a', 'CANARY search the codebase', 6, 9000, 120, 0.12, 1772445000, 1772443000);
INSERT INTO sessions VALUES ('s-a-task-sub', 's-a-task', 'CANARY read one file', 2, 3000, 40, 0.02, 1772444000, 1772443500);
INSERT INTO sessions VALUES ('s-b', NULL, 'CANARY fix the flaky test', 30, 51000, 800, 1.5, 1772530200, 1772524800);
INSERT INTO messages VALUES ('m1', 's-a', 'user', '[{"type":"text","data":{"text":"CANARY prompt"}}]', NULL, 1772442000, 1772442000, NULL);
INSERT INTO messages VALUES ('m2', 's-a', 'assistant', '[{"type":"text","data":{"text":"CANARY answer"}}]', 'claude-sonnet-4-5', 1772442100, 1772442100, 1772442100);
INSERT INTO messages VALUES ('m3', 's-a-task', 'assistant', '[]', 'claude-haiku-4-5', 1772443100, 1772443100, 1772443100);
INSERT INTO messages VALUES ('m4', 's-b', 'assistant', '[{"type":"text","data":{"text":"CANARY answer"}}]', 'gpt-5', 1772525000, 1772525000, 1772525000);
