-- The stones an account's player chose with `[t]` in the lobby ("emoji" or
-- "ascii"); NULL: not chosen, the terminal type decides. Kept as text, so
-- an unknown value (a newer binary's) reads as not chosen.
ALTER TABLE accounts ADD COLUMN stones TEXT;
