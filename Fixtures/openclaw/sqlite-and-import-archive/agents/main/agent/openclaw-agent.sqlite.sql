-- agents/main/agent/openclaw-agent.sqlite of OpenClaw 2026.9: the subset of its schema this reader touches, plus a
-- credentials table it must never read.
CREATE TABLE session_windows (
  session_id TEXT NOT NULL PRIMARY KEY,
  session_key TEXT NOT NULL,
  previous_session_id TEXT,
  reason TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_json TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq),
  FOREIGN KEY (session_id) REFERENCES session_windows(session_id) ON DELETE CASCADE
) STRICT;
CREATE TABLE auth_profile_store (store_key TEXT NOT NULL PRIMARY KEY, store_json TEXT NOT NULL) STRICT;
INSERT INTO auth_profile_store VALUES ('primary', '{"profiles":{"anthropic:default":{"key":"sk-ant-CANARY-not-a-real-key","usage":{"input":1}}}}');
INSERT INTO session_windows VALUES ('1a1a1a1a-0000-4000-8000-000000000001', 'agent:main:telegram:CANARY', NULL, 'initial', 1788343200000, 1788343265000);
INSERT INTO session_windows VALUES ('2b2b2b2b-0000-4000-8000-000000000002', 'agent:main:discord:CANARY', NULL, 'initial', 1788346800000, 1788346860000);
-- Rows are not inserted in seq order.
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('1a1a1a1a-0000-4000-8000-000000000001', 0, '{"type":"session","version":3,"id":"1a1a1a1a-0000-4000-8000-000000000001","timestamp":"2026-09-02T10:00:00.000Z","cwd":"/home/CANARY/.openclaw/workspace"}', 1788343200000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('2b2b2b2b-0000-4000-8000-000000000002', 0, '{"type":"session","version":3,"id":"2b2b2b2b-0000-4000-8000-000000000002","timestamp":"2026-09-02T11:00:00.000Z","cwd":"/home/CANARY/.openclaw/workspace"}', 1788346800000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('1a1a1a1a-0000-4000-8000-000000000001', 1, '{"type":"message","id":"ub100001","parentId":null,"timestamp":"2026-09-02T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"CANARY prompt: summarise my inbox"}],"timestamp":1788343201000}}', 1788343201000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('2b2b2b2b-0000-4000-8000-000000000002', 1, '{"type":"message","id":"uc100001","parentId":null,"timestamp":"2026-09-02T11:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"CANARY prompt: plan the CANARY trip"}],"timestamp":1788346801000}}', 1788346801000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('1a1a1a1a-0000-4000-8000-000000000001', 3, '{"type":"message","id":"b2000002","parentId":"b1000001","timestamp":"2026-09-02T10:01:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"CANARY reply"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-6","usage":{"input":3,"output":70,"cacheRead":9000,"cacheWrite":200,"totalTokens":9273,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.0}},"stopReason":"stop","timestamp":1788343265000}}', 1788343265000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('2b2b2b2b-0000-4000-8000-000000000002', 2, '{"type":"message","id":"c1000001","parentId":"uc100001","timestamp":"2026-09-02T11:00:20.000Z","message":{"role":"assistant","content":[{"type":"text","text":"CANARY reply"}],"api":"openai-responses","provider":"openai","model":"gpt-5.4","usage":{"input":2500,"output":400,"cacheRead":3000,"cacheWrite":0,"totalTokens":5900,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.0}},"stopReason":"stop","timestamp":1788346820000}}', 1788346820000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('1a1a1a1a-0000-4000-8000-000000000001', 2, '{"type":"message","id":"b1000001","parentId":"ub100001","timestamp":"2026-09-02T10:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"CANARY reply"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-6","usage":{"input":6,"output":180,"cacheRead":0,"cacheWrite":9000,"totalTokens":9186,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.0}},"stopReason":"stop","timestamp":1788343205000}}', 1788343205000);
INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('2b2b2b2b-0000-4000-8000-000000000002', 3, '{"type":"message","id":"c2000002","parentId":"c1000001","timestamp":"2026-09-02T11:01:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"CANARY reply"}],"api":"anthropic-messages","provider":"anthropic","usage":{"input":100,"output":20,"cacheRead":0,"cacheWrite":0,"totalTokens":120,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.0}},"stopReason":"stop","timestamp":1788346860000}}', 1788346860000);
