-- The language an account's player chose with `[L]` in the lobby ("en",
-- "de", "zh-TW"); NULL: not chosen, the client's LANG or the host's
-- default decides. Kept as text, so an unknown value reads as not chosen.
ALTER TABLE accounts ADD COLUMN language TEXT;
