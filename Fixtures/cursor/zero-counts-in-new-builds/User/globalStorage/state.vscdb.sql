-- Cursor's global state.vscdb: two key/value tables; usage is in cursorDiskKV bubbles.
PRAGMA journal_mode = WAL;
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);

INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', 'CANARY-access-token');
INSERT INTO ItemTable VALUES ('cursorAuth/refreshToken', 'CANARY-refresh-token');
INSERT INTO ItemTable VALUES ('cursorAuth/cachedEmail', 'CANARY@example.com');
INSERT INTO cursorDiskKV VALUES ('composerData:77777777-aaaa-bbbb-cccc-000000000005', '{"_v":10,"composerId":"77777777-aaaa-bbbb-cccc-000000000005","name":"CANARY chat","createdAt":1772000000000,"lastUpdatedAt":1772000600000,"modelConfig":{"modelName":"claude-4.5-sonnet","maxMode":false},"status":"completed","fullConversationHeadersOnly":[{"bubbleId":"88888888-aaaa-bbbb-cccc-000000000001","type":1},{"bubbleId":"88888888-aaaa-bbbb-cccc-000000000002","type":2}],"usageData":{"default":{"costInCents":0,"amount":0}},"context":{"fileSelections":[{"uri":{"fsPath":"/home/u/CANARY-repo/a.ts"}}]}}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:77777777-aaaa-bbbb-cccc-000000000005:88888888-aaaa-bbbb-cccc-000000000001', '{"_v":3,"type":1,"bubbleId":"88888888-aaaa-bbbb-cccc-000000000001","text":"CANARY prompt","richText":"","requestId":"req-88888888","createdAt":"2026-02-25T06:13:20.000Z","tokenCount":{"inputTokens":0,"outputTokens":0}}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:77777777-aaaa-bbbb-cccc-000000000005:88888888-aaaa-bbbb-cccc-000000000002', '{"_v":3,"type":2,"bubbleId":"88888888-aaaa-bbbb-cccc-000000000002","text":"CANARY text","richText":"","requestId":"req-88888888","createdAt":"2026-02-25T06:13:40.000Z","tokenCount":{"inputTokens":0,"outputTokens":0},"modelInfo":{"modelName":"claude-4.5-sonnet"}}');
INSERT INTO cursorDiskKV VALUES ('agentKv:blob:88888888-aaaa-bbbb-cccc-000000000003', X'7B22726F6C65223A22617373697374616E74222C22636F6E74656E74223A2243414E415259206167656E74206F7574707574227D');
