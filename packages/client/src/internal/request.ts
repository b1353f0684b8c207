/**
 * The endpoints, request validation with the generated guards and Schemas, and request bodies: JSON for most,
 * `multipart/form-data` (Web `FormData`, so it works on every runtime) for audio transcriptions, none for a GET.
 */
import * as Core from "@friendli-stream/core"
import { decodeExplained } from "@friendli-stream/stream/internal"
import * as HttpBody from "effect/http/HttpBody"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import { InvalidRequestError } from "../ClientError.ts"

/** Every path the client calls, relative to the base URL. */
export type ApiPath =
  | Core.EndpointPath
  | "/v1/responses"
  | "/v1/messages"
  | "/v1/audio/transcriptions"
  | "/v1/tokenize"
  | "/v1/detokenize"
  | "/v1/models"

/** One endpoint: where it is, its method, and how its request becomes a body. */
export interface Endpoint {
  readonly name: string
  readonly path: ApiPath | (string & {})
  readonly method: "GET" | "POST"
  /** The body to send (`undefined` for none), with `stream` set as asked; or why the request was not sent. */
  readonly body: (request: unknown, stream: boolean) => Result.Result<HttpBody.HttpBody, InvalidRequestError>
}

/** A check of a request: the compiled guard first (fast), the Schema to explain a refusal. */
interface Check {
  readonly guard: (u: unknown) => boolean
  readonly explain: (u: unknown) => Result.Result<unknown, string>
}

const check = <A>(guard: (u: unknown) => boolean, schema: Schema.Decoder<A>): Check => ({
  guard,
  explain: decodeExplained(schema),
})

const refuse = (name: string, explanation: string): InvalidRequestError =>
  new InvalidRequestError({
    message: `The ${name} request does not match the API schema, so it was not sent:\n${explanation}`,
    explanation,
  })

const validate = (name: string, c: Check, request: unknown): InvalidRequestError | undefined => {
  if (c.guard(request)) return undefined
  const result = c.explain(request)
  return Result.isFailure(result) ? refuse(name, result.failure) : undefined
}

/**
 * Checks a request against the endpoint's schema and returns the JSON text to send, with `stream` set as asked
 * (`stream_options` dropped from a non-streamed request).
 */
export const jsonText = (
  name: string,
  c: Check,
  request: unknown,
  stream: boolean | undefined,
): Result.Result<string, InvalidRequestError> => {
  const refused = validate(name, c, request)
  if (refused !== undefined) return Result.fail(refused)
  const body: Record<string, unknown> = { ...(request as Record<string, unknown>) }
  if (stream !== undefined) body.stream = stream
  if (stream === false) delete body.stream_options
  return Result.succeed(JSON.stringify(body))
}

const json = (name: string, path: Endpoint["path"], c: Check, streams = true): Endpoint => ({
  name,
  path,
  method: "POST",
  body: (request, stream) =>
    Result.map(jsonText(name, c, request, streams ? stream : undefined), (text) =>
      HttpBody.text(text, "application/json"),
    ),
})

/**
 * A JSON endpoint at `path` (POST, `stream` set as asked unless `streams` is `false`) whose requests `guard` accepts
 * and `schema` explains.
 */
export const jsonEndpoint = <A>(
  name: string,
  path: string,
  guard: (u: unknown) => boolean,
  schema: Schema.Decoder<A>,
  streams = true,
): Endpoint => json(name, path, check(guard, schema), streams)

export const completions: Endpoint = json(
  "completion",
  "/v1/completions",
  check(Core.isCompletionRequest, Core.CompletionRequest),
)
export const chat: Endpoint = json(
  "chat completion",
  "/v1/chat/completions",
  check(Core.isChatCompletionRequest, Core.ChatCompletionRequest),
)
export const toolAssistedChat: Endpoint = json(
  "tool-assisted chat completion",
  "/tools/v1/chat/completions",
  check(Core.isToolAssistedChatCompletionRequest, Core.ToolAssistedChatCompletionRequest),
)

/** The endpoints whose request Schema depends on the deployment (a container needs no `model`). */
export interface Endpoints {
  readonly responses: Endpoint
  readonly messages: Endpoint
  readonly transcriptions: Endpoint
  readonly tokenize: Endpoint
  readonly detokenize: Endpoint
  readonly models: Endpoint
}

/** A `File`, a `Blob` or bytes: what a transcription's `file` may be. */
export interface BlobLike {
  readonly size: number
  readonly type: string
  arrayBuffer(): Promise<ArrayBuffer>
}

interface FormDataLike {
  set(name: string, value: string): void
  set(name: string, value: unknown, filename: string): void
}

interface FormGlobals {
  readonly FormData?: new () => FormDataLike
  readonly Blob?: new (parts: ReadonlyArray<Uint8Array | ArrayBuffer>, options?: { readonly type?: string }) => BlobLike
}

const g = globalThis as unknown as FormGlobals

const isBytes = (u: unknown): u is Uint8Array | ArrayBuffer => u instanceof Uint8Array || u instanceof ArrayBuffer

/**
 * A transcription request as `multipart/form-data`: the fields are checked with the Schema (the file as a
 * placeholder string, since the Schema types it as binary text), then put into a Web `FormData`: the file as a
 * `Blob` (bytes are wrapped in one), objects as JSON, numbers and booleans as text.
 */
const formBody = (name: string, c: Check, request: unknown, stream: boolean) => {
  if (typeof request !== "object" || request === null) return Result.fail(refuse(name, "Expected an object"))
  const { file, filename, ...fields } = request as Record<string, unknown> & { filename?: unknown }
  const blob = g.Blob !== undefined && file instanceof g.Blob
  if (!blob && !isBytes(file)) {
    return Result.fail(
      refuse(name, `["file"]\n  Expected a File, a Blob, a Uint8Array or an ArrayBuffer, got ${describe(file)}`),
    )
  }
  if (filename !== undefined && typeof filename !== "string") {
    return Result.fail(refuse(name, `["filename"]\n  Expected a string, got ${describe(filename)}`))
  }
  const refused = validate(name, c, { ...fields, file: "(file)", stream })
  if (refused !== undefined) return Result.fail(refused)
  if (g.FormData === undefined || g.Blob === undefined) {
    return Result.fail(refuse(name, "This runtime has no FormData or Blob, which a multipart upload needs"))
  }
  const form = new g.FormData()
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue
    form.set(key, typeof value === "object" ? JSON.stringify(value) : String(value))
  }
  form.set("stream", String(stream))
  const named = (file as { name?: unknown }).name
  const upload = blob ? file : new g.Blob([file as Uint8Array | ArrayBuffer])
  form.set("file", upload, filename ?? (typeof named === "string" && named !== "" ? named : "audio"))
  return Result.succeed(HttpBody.formData(form as never) as HttpBody.HttpBody)
}

const describe = (u: unknown): string =>
  u === null
    ? "null"
    : u === undefined
      ? "nothing"
      : typeof u === "object"
        ? (u.constructor?.name ?? "an object")
        : typeof u

/** Each deployment's checks of the endpoints whose Schema depends on it. */
const CHECKS = {
  serverless: {
    responses: check(Core.isServerlessResponsesBody, Core.ServerlessResponsesBody),
    messages: check(Core.isServerlessMessagesBody, Core.ServerlessMessagesBody),
    transcriptions: check(Core.isServerlessAudioTranscriptionBody, Core.ServerlessAudioTranscriptionBody),
    tokenize: check(Core.isServerlessTokenizationBody, Core.ServerlessTokenizationBody),
    detokenize: check(Core.isServerlessDetokenizationBody, Core.ServerlessDetokenizationBody),
  },
  dedicated: {
    responses: check(Core.isDedicatedResponsesBody, Core.DedicatedResponsesBody),
    messages: check(Core.isDedicatedMessagesBody, Core.DedicatedMessagesBody),
    transcriptions: check(Core.isDedicatedAudioTranscriptionBody, Core.DedicatedAudioTranscriptionBody),
    tokenize: check(Core.isDedicatedTokenizationBody, Core.DedicatedTokenizationBody),
    detokenize: check(Core.isDedicatedDetokenizationBody, Core.DedicatedDetokenizationBody),
  },
  container: {
    responses: check(Core.isContainerResponsesBody, Core.ContainerResponsesBody),
    messages: check(Core.isContainerMessagesBody, Core.ContainerMessagesBody),
    transcriptions: check(Core.isContainerAudioTranscriptionBody, Core.ContainerAudioTranscriptionBody),
    tokenize: check(Core.isContainerTokenizationBody, Core.ContainerTokenizationBody),
    detokenize: check(Core.isContainerDetokenizationBody, Core.ContainerDetokenizationBody),
  },
} satisfies Record<Core.DeploymentKind, Record<string, Check>>

/** The endpoints of one deployment kind. */
export const endpointsFor = (kind: Core.DeploymentKind): Endpoints => {
  const checks = CHECKS[kind]
  return {
    responses: json("Responses", "/v1/responses", checks.responses),
    messages: json("Messages", "/v1/messages", checks.messages),
    transcriptions: {
      name: "audio transcription",
      path: "/v1/audio/transcriptions",
      method: "POST",
      body: (request, stream) => formBody("audio transcription", checks.transcriptions, request, stream),
    },
    tokenize: json("tokenize", "/v1/tokenize", checks.tokenize, false),
    detokenize: json("detokenize", "/v1/detokenize", checks.detokenize, false),
    models: { name: "model list", path: "/v1/models", method: "GET", body: () => Result.succeed(HttpBody.empty) },
  }
}
