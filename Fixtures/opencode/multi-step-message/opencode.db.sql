-- OpenCode 1.2+ database (schema v1), built by the fixture tests from this text.
PRAGMA journal_mode = WAL;
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_idx ON message (session_id);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX part_message_idx ON part (message_id);
CREATE INDEX part_session_idx ON part (session_id);

INSERT INTO project VALUES ('prj_9f2c', '/home/u/CANARY-project', 'git', NULL, 1767268700000, 1767268700000);
INSERT INTO session VALUES ('ses_a1', 'prj_9f2c', NULL, 'brave-otter', '/home/u/CANARY-project', 'CANARY session title', '1.2.4', 1767268790000, 1767268790000);
INSERT INTO message VALUES ('msg_a01', 'ses_a1', 1767268795000, 1767268795000, '{"role":"user","time":{"created":1767268795000},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4-5"}}');
INSERT INTO part VALUES ('prt_a01', 'msg_a01', 'ses_a1', 1767268795001, 1767268795001, '{"type":"text","text":"CANARY prompt: what is in a step-finish part?","time":{"start":1,"end":2}}');
INSERT INTO part VALUES ('prt_a01b', 'msg_a01', 'ses_a1', 1767268795002, 1767268795002, '{"type":"text","text":"step-finish","time":{"start":1,"end":2}}');
INSERT INTO message VALUES ('msg_a02', 'ses_a1', 1767268800000, 1767268809500, '{"role":"assistant","parentID":"msg_a01","modelID":"claude-sonnet-4-5","providerID":"anthropic","mode":"build","agent":"build","path":{"cwd":"/home/u/CANARY-project","root":"/home/u/CANARY-project"},"time":{"created":1767268800000,"completed":1767268809500},"cost":0.02,"tokens":{"input":30,"output":200,"reasoning":50,"cache":{"read":16000,"write":300}},"finish":"stop"}');
INSERT INTO part VALUES ('prt_a02', 'msg_a02', 'ses_a1', 1767268800100, 1767268800100, '{"type":"step-start","snapshot":"4b825dc6"}');
INSERT INTO part VALUES ('prt_a03', 'msg_a02', 'ses_a1', 1767268801000, 1767268801000, '{"type":"tool","tool":"bash","callID":"toolu_1","state":{"status":"completed","input":{"command":"ls /home/u/CANARY-project"},"output":"CANARY output","title":"ls","metadata":{},"time":{"start":1,"end":2}}}');
INSERT INTO part VALUES ('prt_a04', 'msg_a02', 'ses_a1', 1767268803000, 1767268803000, '{"type":"step-finish","reason":"tool-calls","snapshot":"4b825dc642cb6eb9a060e54bf8d69288fbee4904","cost":0.011,"tokens":{"input":20,"output":300,"reasoning":40,"cache":{"read":15000,"write":500}}}');
INSERT INTO part VALUES ('prt_a05', 'msg_a02', 'ses_a1', 1767268803100, 1767268803100, '{"type":"step-start","snapshot":"4b825dc7"}');
INSERT INTO part VALUES ('prt_a06', 'msg_a02', 'ses_a1', 1767268809000, 1767268809000, '{"type":"step-finish","reason":"stop","snapshot":"4b825dc642cb6eb9a060e54bf8d69288fbee4904","cost":0.009,"tokens":{"input":30,"output":200,"reasoning":50,"cache":{"read":16000,"write":300}}}');
INSERT INTO message VALUES ('msg_a03', 'ses_a1', 1767272400000, 1767272405000, '{"role":"assistant","parentID":"msg_a01","modelID":"gpt-5","providerID":"openai","mode":"build","agent":"build","path":{"cwd":"/home/u/CANARY-project","root":"/home/u/CANARY-project"},"time":{"created":1767272400000,"completed":1767272405000},"cost":0.004,"tokens":{"input":1000,"output":400,"reasoning":100,"cache":{"read":2000,"write":0}},"finish":"stop"}');
INSERT INTO message VALUES ('msg_a04', 'ses_a1', 1767272500000, 1767272500500, '{"role":"assistant","parentID":"msg_a01","modelID":"gpt-5","providerID":"openai","mode":"build","agent":"build","path":{"cwd":"/home/u/CANARY-project","root":"/home/u/CANARY-project"},"time":{"created":1767272500000,"completed":1767272500500},"cost":0,"tokens":{"input":0,"output":0,"reasoning":0,"cache":{"read":0,"write":0}},"finish":"stop","error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}}');
