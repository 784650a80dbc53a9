-- OpenCode 2.x writes opencode-next.db with other tables; this version of the reader does not read them.
PRAGMA journal_mode = WAL;
CREATE TABLE session_v2 (id text PRIMARY KEY, fork_session_id text, fork_boundary integer, directory text, title text, time_created integer, time_updated integer);
CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, seq integer NOT NULL, type text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
INSERT INTO session_v2 VALUES ('ses_n', NULL, NULL, '/home/u/CANARY-next', 'CANARY next', 1767400000000, 1767400000000);
INSERT INTO session_message VALUES ('msg_n1', 'ses_n', 1, 'assistant', 1767400001000, 1767400005000, '{"model":{"id":"claude-sonnet-4-5","providerID":"anthropic"},"time":{"created":1767400001000},"cost":0.2,"tokens":{"input":9,"output":9,"reasoning":9,"cache":{"read":9,"write":9}}}');
