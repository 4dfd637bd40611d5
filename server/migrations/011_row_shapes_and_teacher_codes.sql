-- The shape of each entity's rows as the server sends them, kept so that a device's
-- delta pull never keeps rows pulled before a field or a parent was added (server/entities/
-- row-shapes.ts). At every start the server fingerprints each pulled entity's row (the table's
-- columns and the description's fields, parents and sets); when the fingerprint changes it
-- takes a fresh value of change_seq as reset_rev, and a delta pull from a cursor below it
-- answers the whole table (and the deletions since the cursor), so every device gets its rows
-- again in the new shape. No real entity gains a unique index here: the legacy PHP server
-- allows duplicate names, and existing data may hold some (README, "Unique fields").

CREATE TABLE row_shapes (
  entity_table text PRIMARY KEY,
  fingerprint text NOT NULL,
  reset_rev bigint NOT NULL DEFAULT 0
);

-- Teacher codes past T99999: lpad() cuts a longer text to the width it is given, so the
-- 100,000th teacher got 'T10000' again, the unique constraint refused every add from then on,
-- and the client retried it forever (a 500). Codes keep five digits at least
-- and grow beyond; those given so far stay as they are.
CREATE FUNCTION next_teacher_code() RETURNS text LANGUAGE sql AS $$
  SELECT 'T' || lpad(n::text, greatest(5, length(n::text)), '0') FROM nextval('teacher_code_seq') AS n
$$;
ALTER TABLE teachers ALTER COLUMN teacher_code SET DEFAULT next_teacher_code();
