-- Content pages: About Us and Terms, each a single document (one row, id 1), and
-- the images inserted in rich text, each known by its stored file name in uploads/cms (the
-- name is the key the client learns from the add reply: it is all a content needs to point
-- at the image). Images are never deleted: a content's older versions may still show them.

CREATE TABLE about_us (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  content text NOT NULL DEFAULT '',
  rev bigint NOT NULL DEFAULT 0
);
CREATE TRIGGER about_us_track BEFORE INSERT OR UPDATE ON about_us
  FOR EACH ROW EXECUTE FUNCTION track_change('id');

CREATE TABLE terms (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  content text NOT NULL DEFAULT '',
  rev bigint NOT NULL DEFAULT 0
);
CREATE TRIGGER terms_track BEFORE INSERT OR UPDATE ON terms
  FOR EACH ROW EXECUTE FUNCTION track_change('id');

CREATE TABLE content_images (
  image text PRIMARY KEY,
  added_at timestamptz NOT NULL DEFAULT now(),
  rev bigint NOT NULL DEFAULT 0
);
CREATE INDEX content_images_rev ON content_images (rev);
-- No DELETE branch: tombstones hold integer ids, and images are never deleted.
CREATE TRIGGER content_images_track BEFORE INSERT OR UPDATE ON content_images
  FOR EACH ROW EXECUTE FUNCTION track_change('image');
