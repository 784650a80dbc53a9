-- A workspace's state.vscdb: ItemTable only.
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);

INSERT INTO ItemTable VALUES ('composer.composerData', '{"allComposers":[{"composerId":"77777777-aaaa-bbbb-cccc-000000000005","name":"CANARY chat","createdAt":1772000000000}]}');
