-- OpenCode 1.2+ database (schema v1), built by the fixture tests from this text.
PRAGMA journal_mode = WAL;
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_idx ON message (session_id);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_idx ON part (message_id);
CREATE INDEX part_session_idx ON part (session_id);

INSERT INTO project VALUES ('prj_d', '/home/u/CANARY-dev', 'git', NULL, 1767358000000, 1767358000000);
INSERT INTO session VALUES ('ses_d', 'prj_d', NULL, 'brave-otter', '/home/u/CANARY-dev', 'CANARY dev channel', '1.2.4', 1767358700000, 1767358700000);
INSERT INTO message VALUES ('msg_d01', 'ses_d', 1767358790000, 1767358790000, '{"role":"user","time":{"created":1767358790000},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-haiku-4-5"}}');
INSERT INTO message VALUES ('msg_d02', 'ses_d', 1767358800000, 1767358803000, '{"role":"assistant","parentID":"msg_d01","modelID":"claude-haiku-4-5","providerID":"anthropic","mode":"build","agent":"build","path":{"cwd":"/home/u/CANARY-dev","root":"/home/u/CANARY-dev"},"time":{"created":1767358800000,"completed":1767358803000},"cost":0.001,"tokens":{"input":5,"output":50,"reasoning":0,"cache":{"read":1000,"write":100}},"finish":"stop"}');
INSERT INTO part VALUES ('prt_d01', 'msg_d02', 'ses_d', 1767358802000, 1767358802000, '{"type":"step-finish","reason":"stop","snapshot":"4b825dc642cb6eb9a060e54bf8d69288fbee4904","cost":0.001,"tokens":{"input":5,"output":50,"reasoning":0,"cache":{"read":1000,"write":100}}}');
