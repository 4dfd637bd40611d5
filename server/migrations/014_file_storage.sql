-- Files and resumable uploads kept in step across processes (object storage, several
-- server processes). Three small tables of shared state, so that no process's memory decides.

-- The upload journal's outcomes (server/uploads/journal.ts). A stored file is first marked
-- pending in the storage, then written; its write transaction records here that it kept the
-- file ('kept') or that a file it replaced or deleted is obsolete ('dropped'). Both rows commit
-- or roll back with the change, so the sweeper (server/storage/sweep.ts) can tell, for a
-- pending mark left by a process that died, whether the file belongs to a committed record,
-- and retry removals that failed after the commit.
CREATE TABLE upload_journal (
  folder text NOT NULL,
  name text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('kept', 'dropped')),
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (folder, name)
);

-- Resumable uploads not yet taken by a record: whose each is, its declared length (the limit
-- of bytes one administrator may hold, UPLOAD_PENDING_MB) and its last chunk (the 24 h sweep).
CREATE TABLE resumable_uploads (
  id text PRIMARY KEY,
  admin_id integer NOT NULL,
  length bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  touched_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX resumable_uploads_admin ON resumable_uploads (admin_id);

-- Which request writes a resumable upload now (server/storage/upload-locks.ts): a lease that
-- its holder renews while it writes, so that a chunk that arrives at another process waits
-- for it (or asks it to let go), and a lease whose process died expires.
CREATE TABLE upload_locks (
  id text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL,
  release_requested boolean NOT NULL DEFAULT false
);
