-- Cursor's global state.vscdb: two key/value tables; usage is in cursorDiskKV bubbles.
PRAGMA journal_mode = WAL;
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);

INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', 'CANARY-access-token');
INSERT INTO ItemTable VALUES ('cursorAuth/refreshToken', 'CANARY-refresh-token');
INSERT INTO ItemTable VALUES ('cursorAuth/cachedEmail', 'CANARY@example.com');
INSERT INTO cursorDiskKV VALUES ('composerData:33333333-aaaa-bbbb-cccc-000000000003', '{"_v":10,"composerId":"33333333-aaaa-bbbb-cccc-000000000003","name":"CANARY chat","createdAt":1746093600000,"lastUpdatedAt":1746094200000,"modelConfig":{"modelName":"claude-3.7-sonnet","maxMode":false},"status":"completed","fullConversationHeadersOnly":[{"bubbleId":"44444444-aaaa-bbbb-cccc-000000000001","type":2},{"bubbleId":"44444444-aaaa-bbbb-cccc-000000000002","type":2},{"bubbleId":"44444444-aaaa-bbbb-cccc-000000000003","type":2}],"usageData":{"default":{"costInCents":0,"amount":0}},"context":{"fileSelections":[{"uri":{"fsPath":"/home/u/CANARY-repo/a.ts"}}]}}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:33333333-aaaa-bbbb-cccc-000000000003:44444444-aaaa-bbbb-cccc-000000000001', '{"_v":3,"type":2,"bubbleId":"44444444-aaaa-bbbb-cccc-000000000001","text":"CANARY text","richText":"","requestId":"req-44444444","tokenCount":{"inputTokens":2000,"outputTokens":500},"timingInfo":{"clientStartTime":98765.4,"clientRpcSendTime":1746180000000,"clientEndTime":1746180060000}}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:33333333-aaaa-bbbb-cccc-000000000003:44444444-aaaa-bbbb-cccc-000000000002', '{"_v":3,"type":2,"bubbleId":"44444444-aaaa-bbbb-cccc-000000000002","text":"CANARY text","richText":"","requestId":"req-44444444","tokenCount":{"inputTokens":100,"outputTokens":20},"modelInfo":{"modelName":""}}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:33333333-aaaa-bbbb-cccc-000000000003:44444444-aaaa-bbbb-cccc-000000000003', '{"_v":3,"type":2,"bubbleId":"44444444-aaaa-bbbb-cccc-000000000003","text":"CANARY text","richText":"","requestId":"req-44444444","tokenCount":{"inputTokens":50,"outputTokens":5},"timingInfo":{"clientStartTime":123456.7}}');
