-- Resource types (spec §3: id, title, entry_type): the kinds of library resources, each with
-- an entry-type code 1-6 that decides a resource's inputs (spec §4). The server refuses other
-- codes before they reach the CHECK (src/contract/validation.ts, kind 'choice').

CREATE TABLE resource_types (
  id serial PRIMARY KEY,
  title text NOT NULL,
  entry_type smallint NOT NULL CHECK (entry_type BETWEEN 1 AND 6),
  rev bigint NOT NULL DEFAULT 0
);

CREATE INDEX resource_types_rev ON resource_types (rev);
CREATE TRIGGER resource_types_track BEFORE INSERT OR UPDATE OR DELETE ON resource_types
  FOR EACH ROW EXECUTE FUNCTION track_change('id');
