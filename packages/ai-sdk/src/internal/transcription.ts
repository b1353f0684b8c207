/**
 * The transcription model: the AI SDK's audio (bytes or base64) uploaded through the client's
 * `audio.transcriptions.create` (`multipart/form-data` to `/v1/audio/transcriptions`), its answer mapped to the
 * specification's result. Friendli answers with the text and a usage, no timings: `segments` is empty, a request
 * for timestamps is a warning, `durationInSeconds` is the usage's `input_audio_length_ms`.
 */
import type {
  JSONObject,
  SharedV4Warning,
  TranscriptionModelV4,
  TranscriptionModelV4CallOptions,
  TranscriptionModelV4Result,
} from "@ai-sdk/provider"
import type { FriendliClient } from "@friendli-stream/client"
import type * as HttpClient from "effect/http/HttpClient"
import { type CallSettings, resolveForCall, runCreate } from "./call.ts"
import { readTranscriptionOptions } from "./transcriptionOptions.ts"

/** What a transcription model needs from its provider. */
export interface TranscriptionConfig {
  readonly provider: string
  readonly settings: CallSettings
  readonly http: () => HttpClient.HttpClient
}

const PATH = "/v1/audio/transcriptions"

/** File extensions of the media types whose subtype is not one (the server may read the format from the name). */
const EXTENSIONS: Record<string, string> = {
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/vnd.wave": "wav",
  "audio/x-flac": "flac",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "aac",
  "audio/x-aiff": "aiff",
}

/** The upload's file name for a media type: `audio.wav`, `audio.mp3`, …; `audio` when unknown. */
export const filenameOf = (mediaType: string): string => {
  const type = mediaType.split(";")[0]!.trim().toLowerCase()
  const extension = EXTENSIONS[type] ?? /^audio\/([a-z0-9]+)$/.exec(type)?.[1]
  return extension === undefined ? "audio" : `audio.${extension}`
}

/** The audio's bytes: as given, or decoded from base64. */
const bytesOf = (audio: Uint8Array | string): Uint8Array<ArrayBuffer> => {
  if (typeof audio !== "string") return new Uint8Array(audio)
  const binary = atob(audio)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** A Friendli transcription model of the AI SDK's specification v4. */
export class FriendliTranscriptionModel implements TranscriptionModelV4 {
  readonly specificationVersion = "v4"
  readonly modelId: string
  private readonly config: TranscriptionConfig

  constructor(modelId: string, config: TranscriptionConfig) {
    this.modelId = modelId
    this.config = config
  }

  get provider(): string {
    return `${this.config.provider}.transcription`
  }

  async doGenerate(options: TranscriptionModelV4CallOptions): Promise<TranscriptionModelV4Result> {
    const warnings: Array<SharedV4Warning> = []
    const friendli = readTranscriptionOptions(options.providerOptions, warnings)
    if (options.timestampGranularities !== undefined && options.timestampGranularities.length > 0) {
      warnings.push({
        type: "unsupported",
        feature: "timestampGranularities",
        details: `Friendli's transcription answers with the text only: no ${options.timestampGranularities.join(" or ")} timings; segments is empty.`,
      })
    }
    const resolved = resolveForCall(this.config.settings, options.headers)
    const fields = {
      model: this.modelId,
      ...(friendli.language === undefined ? {} : { language: friendli.language }),
      ...(friendli.temperature === undefined ? {} : { temperature: friendli.temperature }),
      ...(friendli.chunkingStrategy === undefined ? {} : { chunking_strategy: friendli.chunkingStrategy }),
    }
    const bytes = bytesOf(options.audio)
    const filename = filenameOf(options.mediaType)
    const request: FriendliClient.TranscriptionRequest = {
      ...fields,
      file: new Blob([bytes], { type: options.mediaType }),
      filename,
    }
    // The request as telemetry sees it: the form's fields, the file by name and size.
    const described = { ...fields, file: `<${filename}, ${bytes.byteLength} bytes>` }
    const timestamp = new Date()
    const { value, headers } = await runCreate(
      { http: this.config.http(), options: resolved, path: PATH, body: described, signal: options.abortSignal },
      (client) => client.audio.transcriptions.create(request),
    )
    const usage = value.usage as unknown as JSONObject
    return {
      text: value.text,
      segments: [],
      language: friendli.language,
      durationInSeconds: value.usage.input_audio_length_ms / 1000,
      warnings,
      usage,
      request: { body: JSON.stringify(described) },
      response: { timestamp, modelId: this.modelId, headers, body: value },
      providerMetadata: { friendli: { usage } },
    }
  }
}
