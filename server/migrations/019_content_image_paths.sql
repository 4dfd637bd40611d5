-- Images inserted in rich text are referred to by path (/api/uploads/cms/<name>), never with a
-- host: a full address one tablet saved is one another tablet may not reach, and the content
-- security policy blocks an image from an origin the page is not on. Content stored before
-- that rule loses the scheme and host of its own images; other images are left as they are.
-- Only rows that change are written (each write makes devices pull the row again).

UPDATE about_us
SET content = regexp_replace(content, '(<img\s[^>]*src=")https?://[^/"]+(/api/uploads/cms/)', '\1\2', 'gi')
WHERE content ~* '<img\s[^>]*src="https?://[^/"]+/api/uploads/cms/';

UPDATE terms
SET content = regexp_replace(content, '(<img\s[^>]*src=")https?://[^/"]+(/api/uploads/cms/)', '\1\2', 'gi')
WHERE content ~* '<img\s[^>]*src="https?://[^/"]+/api/uploads/cms/';

UPDATE subjects
SET subject_content = regexp_replace(subject_content, '(<img\s[^>]*src=")https?://[^/"]+(/api/uploads/cms/)', '\1\2', 'gi')
WHERE subject_content ~* '<img\s[^>]*src="https?://[^/"]+/api/uploads/cms/';
