/**
 * `POST /v1/audio/transcriptions`: a `multipart/form-data` upload (`file`, `model`, `language`, `temperature`,
 * `chunking_strategy`, `stream`). The transcript depends only on the file's bytes. Streamed: one
 * `transcript.text.delta` per token, `transcript.text.done` with the text and the usage, then `data: [DONE]`
 * (no `event:` lines, as the API sends them).
 */
import * as Core from "@friendli-stream/core"
import type { ValidationIssue } from "./errors.ts"
import type { Frame } from "./frames.ts"
import { hashString } from "./prng.ts"
import { type Generation, generate } from "./tokens.ts"
import { Checker, type Json } from "./validate.ts"

/** The audio the mock "hears": 16 kHz, 16-bit mono, so 32 bytes a millisecond. */
const BYTES_PER_MS = 32

/** A valid transcription request. */
export interface TranscriptionRequest {
  readonly stream: boolean
  readonly gen: Generation
  readonly audioMs: number
}

/** The form's fields as the request Schema types them (the file as its name, for the record and the Schema). */
export interface TranscriptionForm {
  readonly fields: Json
  readonly file: Uint8Array | undefined
}

const FILE_PLACEHOLDER = (name: string, size: number) => `<file ${name}, ${size} bytes>`

/** Reads a multipart form: text fields (numbers, booleans and JSON objects parsed) and the file's bytes. */
export const readForm = async (form: FormData): Promise<TranscriptionForm> => {
  const fields: Record<string, unknown> = {}
  let file: Uint8Array | undefined
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") {
      const bytes = new Uint8Array(await value.arrayBuffer())
      if (key === "file") file = bytes
      fields[key] = FILE_PLACEHOLDER(value.name, bytes.length)
    } else if (key === "stream") fields[key] = value === "true" ? true : value === "false" ? false : value
    else if (key === "temperature" && value.trim() !== "" && !Number.isNaN(Number(value))) fields[key] = Number(value)
    else if (key === "chunking_strategy" && value.trimStart().startsWith("{")) {
      try {
        fields[key] = JSON.parse(value)
      } catch {
        fields[key] = value
      }
    } else fields[key] = value
  }
  return { fields, file }
}

/** Validates a transcription form against the deployment's request Schema; the file must be an uploaded file. */
export const readTranscription = (
  form: TranscriptionForm,
  container: boolean,
):
  | { readonly ok: true; readonly request: TranscriptionRequest }
  | { readonly ok: false; readonly issues: ReadonlyArray<ValidationIssue> } => {
  const stream = form.fields.stream === true
  const schema = container
    ? stream
      ? Core.ContainerAudioTranscriptionStreamBody
      : Core.ContainerAudioTranscriptionBody
    : stream
      ? Core.ServerlessAudioTranscriptionStreamBody
      : Core.ServerlessAudioTranscriptionBody
  const c = new Checker<Core.ContainerAudioTranscriptionBody>(form.fields, schema)
  if (form.fields.file !== undefined && form.file === undefined) {
    c.issue(["file"], "Expected an uploaded file, not a text field", "value_error", form.fields.file)
  } else if (form.file !== undefined && form.file.length === 0) {
    c.issue(["file"], "The uploaded file is empty", "value_error")
  }
  if (c.issues.length > 0) return { ok: false, issues: c.issues }
  const bytes = form.file!
  let key = 0x811c9dc5
  for (let i = 0; i < bytes.length; i += Math.max(1, Math.floor(bytes.length / 4096)))
    key = hashString(String(bytes[i]), key)
  const gen = generate({
    promptKey: key,
    promptText: "",
    seed: undefined,
    index: 0,
    maxTokens: undefined,
    minTokens: 0,
    ignoreEos: false,
    stop: [],
    chat: true,
  })
  return { ok: true, request: { stream, gen, audioMs: Math.max(1, Math.round(bytes.length / BYTES_PER_MS)) } }
}

const usageOf = (req: TranscriptionRequest): Core.AudioTranscriptionUsageEncoded => {
  const audio = Math.ceil(req.audioMs / 100)
  return {
    type: "tokens",
    input_tokens: audio,
    output_tokens: req.gen.tokens.length,
    total_tokens: audio + req.gen.tokens.length,
    input_audio_length_ms: req.audioMs,
    processed_audio_length_ms: req.audioMs,
    input_token_details: { audio_tokens: audio, text_tokens: 0 },
  }
}

/** The streamed events of a transcription, `[DONE]` included. */
export const transcriptionFrames = (req: TranscriptionRequest): ReadonlyArray<Frame> => [
  ...req.gen.tokens.map((t): Frame => ({ kind: "data", data: { type: "transcript.text.delta", delta: t.text } })),
  { kind: "data", data: { type: "transcript.text.done", text: req.gen.text, usage: usageOf(req) } },
  { kind: "done" },
]

/** The non-streamed transcription: the same text as the stream. */
export const transcriptionBody = (req: TranscriptionRequest): Core.AudioTranscriptionResultEncoded => ({
  text: req.gen.text,
  usage: usageOf(req),
})
