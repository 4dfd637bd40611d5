/**
 * Which inputs a library resource's form shows for the entry type of its resource type
 * (spec §4: "choosing a resource type fetches its entry type, which decides the inputs shown";
 * codes 1-6 in resource-type.ts). Written once, here; the description's `switched` points at
 * it, the form draws from it (switched-inputs.ts) and tests/unit/contract/content.test.ts
 * pins it.
 *
 * | Code | Entry type      | Inputs                                                   |
 * |------|-----------------|----------------------------------------------------------|
 * | 1    | Link            | Link                                                     |
 * | 2    | File Upload     | Document file, or Document Link                          |
 * | 3    | Textarea & Link | Theory Notes and Link                                    |
 * | 4    | Iframe          | Iframe Link (http or https; previewed only sandboxed)    |
 * | 5    | Textarea        | Theory Notes                                             |
 * | 6    | Audio           | Audio file (.mp3 only) or Audio Link                     |
 *
 * Every type also offers the further materials the spec lists: a video (an mp4 file or a
 * link) with a question on it, interactivities, additional worksheets, additional activities
 * and answer keys (each a file or a link), a lesson plan link and a thumbnail; and the
 * category. They are in no list below, so they always appear. Inputs a type does not show
 * are sent empty, so changing a resource's type clears the texts and links of the old one
 * (a stored file stays: the API has no way to delete one, api-contract §9.14).
 */
export const ENTRY_TYPE_INPUTS = {
  '1': ['resource_link'],
  '2': ['document_file', 'document_link'],
  '3': ['notes_content', 'resource_link'],
  '4': ['iframe_link'],
  '5': ['notes_content'],
  '6': ['audio_file', 'audio_link'],
} as const satisfies Readonly<Record<string, readonly string[]>>;
