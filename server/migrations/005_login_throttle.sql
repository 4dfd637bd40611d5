-- Sign-in hardening: the login throttle's state, the devices that signed in
-- before, and the sessions' idle and absolute limits.

-- rate-limiter-flexible's PostgreSQL store, in the shape its RateLimiterPostgres expects
-- (server/auth/throttle.ts): key = limiter prefix + hashed account and/or address, points
-- consumed, expiry in epoch milliseconds. In the database so that a lock holds across
-- restarts and across several server processes.
CREATE TABLE login_throttle (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
CREATE INDEX login_throttle_expire ON login_throttle (expire);

-- A device (browser) that signed in to an account before holds a random token in a cookie;
-- only its sha256 is kept. Such a device is throttled on its own failures only, so that an
-- attack on the account from elsewhere does not lock its administrator out.
CREATE TABLE known_devices (
  token_hash text NOT NULL,
  admin_id integer NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (token_hash, admin_id)
);
CREATE INDEX known_devices_expires ON known_devices (expires_at);

-- Sessions end after an idle time or at an absolute limit (server/auth/sessions.ts);
-- expires_at is now the absolute limit. Sessions made under the old 30-day rule end here:
-- their holders sign in once more (queued changes wait for that, as after any expiry).
DELETE FROM sessions;
ALTER TABLE sessions
  ADD COLUMN created_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN idle_seconds integer NOT NULL;
