/**
 * `providerOptions.friendli` of a transcription: the form fields of Friendli's `/v1/audio/transcriptions` that
 * the AI SDK's call options do not cover, checked like the language model's (`InvalidArgumentError` naming the
 * option; an unknown key is a warning).
 */
import type { SharedV4ProviderOptions, SharedV4Warning } from "@ai-sdk/provider"
import { checkProviderOptions, type Fields, isNumber, isRecord } from "./options.ts"

/**
 * Friendli's `server_vad` chunking: voice activity detection with these settings.
 *
 * @since 0.2.0
 */
export interface FriendliServerVadChunking {
  /** @since 0.2.0 */
  readonly type: "server_vad"
  /** Audio kept before detected speech, in ms (Friendli's default 300). @since 0.2.0 */
  readonly prefix_padding_ms?: number | undefined
  /** Silence that ends speech, in ms (Friendli's default 200). @since 0.2.0 */
  readonly silence_duration_ms?: number | undefined
  /** Detection threshold, 0 to 1 (Friendli's default 0.5). @since 0.2.0 */
  readonly threshold?: number | undefined
}

/**
 * `providerOptions.friendli` of `transcribe`: Friendli's transcription fields.
 *
 * @since 0.2.0
 */
export interface FriendliTranscriptionOptions {
  /** `language`: the audio's language, ISO-639-1 (e.g. `"en"`); it is also the result's `language`. @since 0.2.0 */
  readonly language?: string | undefined
  /** `temperature`, 0 to 1. @since 0.2.0 */
  readonly temperature?: number | undefined
  /** `chunking_strategy`: `"auto"` (loudness normalisation, then VAD) or `server_vad` settings. @since 0.2.0 */
  readonly chunkingStrategy?: "auto" | FriendliServerVadChunking | undefined
}

const VAD_NUMBERS = ["prefix_padding_ms", "silence_duration_ms", "threshold"]

const FIELDS: Fields<FriendliTranscriptionOptions> = {
  language: { check: (u) => typeof u === "string" && u.length > 0, expected: 'an ISO-639-1 code such as "en"' },
  temperature: { check: isNumber, expected: "a number" },
  chunkingStrategy: {
    check: (u) =>
      u === "auto" ||
      (isRecord(u) &&
        u.type === "server_vad" &&
        Object.entries(u).every(
          ([k, v]) => k === "type" || (VAD_NUMBERS.includes(k) && (v === undefined || isNumber(v))),
        )),
    expected: `"auto" or { type: "server_vad", ${VAD_NUMBERS.map((k) => `${k}?: number`).join(", ")} }`,
  },
}

/** The checked options, and a warning for each key that is not one of them. */
export const readTranscriptionOptions = (
  providerOptions: SharedV4ProviderOptions | undefined,
  warnings: Array<SharedV4Warning>,
): FriendliTranscriptionOptions => checkProviderOptions(providerOptions, FIELDS, warnings)
