-- Schools, teachers and students are each unique by e-mail, compared without case: an index
-- on lower(email) named {table}_email_unique (src/contract/unique.ts), which the server reads
-- a refusal by.
--
-- A database may already hold duplicates (two imports of one file). It keeps starting: the
-- index leaves out the later records of each group that exists now, by listing their ids in
-- its expression (each of them indexed with its own id, so it collides with nothing), and
-- the first record of each group stands for the address. A new record or an edit that gives
-- an address of a group is refused like any other duplicate. The server names the groups at
-- start and on GET /api/duplicates, for an administrator to merge or correct.
DO $$
DECLARE
  target record;
  later int[];
BEGIN
  FOR target IN SELECT * FROM (VALUES ('schools', 'school_id'), ('teachers', 'teacher_id'), ('students', 'student_id')) AS t(tbl, key)
  LOOP
    EXECUTE format(
      'SELECT coalesce(array_agg(%2$I ORDER BY %2$I), ''{}'') FROM (
         SELECT %2$I, row_number() OVER (PARTITION BY lower(email) ORDER BY %2$I) AS n
         FROM %1$I WHERE email <> '''') d WHERE n > 1',
      target.tbl, target.key) INTO later;
    EXECUTE format(
      'CREATE UNIQUE INDEX %1$I ON %2$I (lower(email), (CASE WHEN %3$I = ANY (%4$L::int[]) THEN %3$I ELSE 0 END)) WHERE email <> ''''',
      target.tbl || '_email_unique', target.tbl, target.key, later);
  END LOOP;
END $$;
