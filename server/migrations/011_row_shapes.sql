-- Issue 19: the shape of each entity's rows as the server sends them, kept so that a device's
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
