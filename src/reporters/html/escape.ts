/**
 * Data for the page, as JSON that a `<script type="application/json">` can hold whatever the input
 * said: `<`, `>` and `&` are escaped (no `</script>` or `<!--` can end or bend the element), and so is
 * every character outside printable ASCII (U+2028/2029, controls, bidi overrides), so the page text
 * is plain ASCII and means the same in any parser. JSON.parse reads it back unchanged.
 */

const UNSAFE_IN_SCRIPT = /[^\u0020-\u007e]|[<>&]/g;

const escaped = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** `value` as JSON safe to place between `<script type="application/json">` and `</script>`. */
export function scriptJson(value: unknown): string {
  // Outside strings JSON text is ASCII without <, > or &: every match is inside a string, where
  // a \uXXXX escape stands for the same character (a surrogate pair as two escapes).
  return JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, escaped);
}
