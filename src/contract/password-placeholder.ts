/**
 * What a get reply carries as a record's `password` (getSchool.php, getteachers.php,
 * getstudents.php). The original front-end copies `password` from the reply into its edit form,
 * marks it required and sends it back as it is (api-contract §3.9-3.11, §5.7); a reply
 * without one left Update School and Update Teacher unable to save an unchanged record, and
 * Update Student sent the text "undefined" as a new password.
 *
 * Our server never returns the stored hash or anything derived from it, so it answers this
 * fixed text, the same for every record: no secret, nothing to learn from it. An update that
 * sends it back keeps the current password, like an empty one; an add refuses it, and so
 * does our app's form if it is typed (it would otherwise mean "unchanged" without saying so).
 * Our app never keeps or shows it: rows read from a server lose their passwords
 * (src/sync/pull/normalise.ts). Only an edit's merge with the server's record sees it: a password
 * left empty sends back what the get said, as the original does (src/sync/merge/merge-edit.ts), which
 * here means "keep" and on a PHP server is what its own front-end sends.
 */
export const PASSWORD_PLACEHOLDER = '(unchanged)';

export const isPasswordPlaceholder = (value: unknown): boolean =>
  typeof value === 'string' && value.trim() === PASSWORD_PLACEHOLDER;

/** Why the placeholder cannot be a new password, on the server's add and in the form. */
export const placeholderRefusal = (label: string) =>
  `${label} cannot be "${PASSWORD_PLACEHOLDER}": that text means "keep the current password"`;
