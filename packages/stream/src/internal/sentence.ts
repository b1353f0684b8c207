/**
 * Joining text from elsewhere (a server's message, a cause's message) into our own error messages without doubled
 * punctuation: `"not valid."` ends a sentence as it is, `"not valid"` gets its period.
 */

/** Whether `text` already ends a sentence (`.`, `!`, `?` or `…`, before any closing quotes or brackets). */
const ENDS_SENTENCE = /[.!?…]["')\]]*$/

/** `text` as the end of a sentence: trimmed, with a period unless it already ends with one (or `!`, `?`, `…`). */
export const sentence = (text: string): string => {
  const trimmed = text.trim()
  return trimmed === "" || ENDS_SENTENCE.test(trimmed) ? trimmed : `${trimmed}.`
}
