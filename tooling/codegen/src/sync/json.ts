/** JSON objects as the sync reads them: the type of a parsed object, and the check that a parsed value is one. */

/** A parsed JSON object. */
export type Json = Record<string, unknown>

/** Whether a parsed YAML/JSON value is an object (not an array, not null). */
export const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)
