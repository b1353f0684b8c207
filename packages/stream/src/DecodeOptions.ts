/**
 * Options of the chunk decoders.
 *
 * @since 0.1.0
 */

/**
 * Options shared by every chunk decoder.
 *
 * - `maxEventBytes`: the longest line or event, in characters of decoded text (never more than its bytes); longer
 *   fails with `SseError` (`EventTooLarge`) and memory stays bounded by it. Default 8 MiB.
 * - `requireDone`: the body must end with `data: [DONE]` (Responses and Messages streams: with their terminal event;
 *   transcriptions: `transcript.text.done`, then `[DONE]`); default `true`. With `false`, a clean end at an event
 *   boundary is accepted (an end in the middle of an event still fails with `StreamTruncated`).
 * - `validation`: `"strict"` (default) checks chunks against the Friendli schemas; `"compatible"` accepts any
 *   OpenAI-compatible server (`id: ""`, `created: 0`, any or no `finish_reason`, extra fields, usage on any chunk),
 *   and reads chat deltas other servers shape differently as Friendli's: Mistral's content parts (text as `content`,
 *   thinking as `reasoning_content`), `reasoning` as `reasoning_content`, tool-call deltas without `index` or with a
 *   reused one (see the package README).
 *
 * @since 0.1.0
 */
export interface DecodeOptions {
  /** The longest line or event, in characters of decoded text; default 8 MiB. @since 0.1.0 */
  readonly maxEventBytes?: number | undefined
  /** Whether the body must end properly (`data: [DONE]`, or its protocol's terminal event); default `true`. @since 0.1.0 */
  readonly requireDone?: boolean | undefined
  /** `"strict"` Friendli schemas (default) or `"compatible"` lenient ones. @since 0.1.0 */
  readonly validation?: "strict" | "compatible" | undefined
}

/**
 * Options that select the strict Friendli schemas (the default).
 *
 * @since 0.1.0
 */
export interface StrictOptions extends DecodeOptions {
  /** The strict Friendli schemas. @since 0.1.0 */
  readonly validation?: "strict" | undefined
}

/**
 * Options that select the lenient OpenAI-compatible schemas.
 *
 * @since 0.1.0
 */
export interface CompatibleOptions extends DecodeOptions {
  /** The lenient OpenAI-compatible schemas. @since 0.1.0 */
  readonly validation: "compatible"
}

/**
 * The default `maxEventBytes`: 8 MiB.
 *
 * @since 0.1.0
 */
export const DEFAULT_MAX_EVENT_BYTES: number = 8 * 1024 * 1024
