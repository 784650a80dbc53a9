-- A state.vscdb from before cursorDiskKV existed: ItemTable only.
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);

INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', 'CANARY-access-token');
INSERT INTO ItemTable VALUES ('cursorAuth/refreshToken', 'CANARY-refresh-token');
INSERT INTO ItemTable VALUES ('cursorAuth/cachedEmail', 'CANARY@example.com');
INSERT INTO ItemTable VALUES ('workbench.panel.aichat.view.aichat.chatdata', '{"tabs":[{"bubbles":[{"type":"user","text":"CANARY old chat"}]}]}');
