-- What makes a session checked a moment ago wrong tells the server processes, which forget the
-- sessions they keep (server/auth/session-cache.ts): a session ended (signed out, swept, ended
-- by a password change or a disabled account), or an administrator's role or status changed.
-- Notifications go out when their transaction commits, identical ones folded into one.
CREATE FUNCTION notify_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sessions', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER sessions_ended AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_sessions();

CREATE TRIGGER admins_access_changed AFTER UPDATE OF role, status ON admins
  FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION notify_sessions();

CREATE TRIGGER admins_removed AFTER DELETE ON admins
  FOR EACH ROW EXECUTE FUNCTION notify_sessions();
