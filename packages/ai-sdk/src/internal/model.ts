/**
 * The language model: `doStream` opens the stream (an HTTP error or an error before the first chunk is thrown, for
 * the AI SDK to retry) and maps its items to parts; a failure later on (a cut stream, an in-stream error) is an
 * `error` part and then the stream's own failure, never a clean finish. `doGenerate` is the same stream folded
 * into content, so that both report the same things (built-in tools and a cut response included).
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider"
import { foldDeltas } from "@friendli-stream/client/provider"
import type * as HttpClient from "effect/http/HttpClient"
import type * as Stream from "effect/Stream"
import { type CallSettings, openStream, resolveForCall } from "./call.ts"
import { toCallError } from "./errors.ts"
import { PartMapper } from "./parts.ts"
import { chatRequest, completionRequest } from "./request.ts"

type Part = LanguageModelV4StreamPart

/** Which API a model calls. */
export type ModelKind = "chat" | "completion"

/** What a model needs from its provider. */
export interface ModelConfig {
  readonly provider: string
  readonly settings: CallSettings
  readonly http: () => HttpClient.HttpClient
}

const PATHS = { chat: "/v1/chat/completions", tools: "/tools/v1/chat/completions", completion: "/v1/completions" }

/** A Friendli language model (chat or completions) of the AI SDK's specification v4. */
export class FriendliLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4"
  readonly supportedUrls: Record<string, Array<RegExp>> = { "image/*": [/^https?:\/\/.*$/] }

  readonly modelId: string
  readonly kind: ModelKind
  private readonly config: ModelConfig

  constructor(modelId: string, kind: ModelKind, config: ModelConfig) {
    this.modelId = modelId
    this.kind = kind
    this.config = config
  }

  get provider(): string {
    return `${this.config.provider}.${this.kind}`
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const prepared =
      this.kind === "chat" ? chatRequest(this.modelId, options) : completionRequest(this.modelId, options)
    const resolved = resolveForCall(this.config.settings, options.headers)
    const body = { ...prepared.body, stream: true }
    const builtIn = prepared.builtIns.length > 0
    const path = this.kind === "completion" ? PATHS.completion : builtIn ? PATHS.tools : PATHS.chat
    const opened = await openStream(
      { http: this.config.http(), options: resolved, path, body, signal: options.abortSignal },
      (client): Stream.Stream<unknown, unknown> => {
        const decode = { validation: this.config.settings.validation } as never
        return this.kind === "completion"
          ? client.completions.stream(prepared.body as never, decode)
          : builtIn
            ? client.toolAssistedChat.stream(prepared.body as never, decode)
            : client.chat.stream(prepared.body as never, decode)
      },
    )
    const mapper = new PartMapper(this.kind, prepared.builtIns, options.includeRawChunks === true)
    const signal = options.abortSignal
    const site = { url: opened.url, body, headers: opened.headers }
    const push = (item: unknown, out: Array<Part>) => {
      const tagged = item as { _tag?: string; chunk?: unknown; status?: unknown }
      if (builtIn && tagged._tag === "ToolStatus") mapper.toolStatus(tagged.status as never, out)
      else mapper.chunk((builtIn ? tagged.chunk : item) as never, out)
    }
    let failure: { readonly error: unknown } | undefined
    const stream = new ReadableStream<Part>({
      start(controller) {
        const out: Array<Part> = [{ type: "stream-start", warnings: prepared.warnings }]
        if (opened.first.done !== true) push(opened.first.value, out)
        for (const part of out) controller.enqueue(part)
      },
      async pull(controller) {
        // The error part is enqueued first and the stream fails at the next pull: erroring the stream at once
        // would drop the parts still queued, the error part among them.
        if (failure !== undefined) return controller.error(failure.error)
        const out: Array<Part> = []
        try {
          // A pull that enqueues nothing is not called again: read on until an item makes a part.
          while (out.length === 0) {
            const next = await opened.reader.read()
            if (signal?.aborted) throw signal.reason
            if (next.done === true) {
              mapper.finish(out)
              for (const part of out) controller.enqueue(part)
              controller.close()
              return
            }
            push(next.value, out)
          }
          for (const part of out) controller.enqueue(part)
        } catch (cause) {
          if (signal?.aborted) return controller.error(signal.reason)
          const error = toCallError(cause, site)
          for (const part of out) controller.enqueue(part)
          controller.enqueue({ type: "error", error })
          failure = { error }
        }
      },
      cancel(reason) {
        return opened.reader.cancel(reason)
      },
    })
    return { stream, request: { url: opened.url, body }, response: { headers: opened.headers } }
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const result = await this.doStream({ ...options, includeRawChunks: false })
    const parts: Array<Part> = []
    const reader = result.stream.getReader()
    let warnings: LanguageModelV4GenerateResult["warnings"] = []
    let metadata: LanguageModelV4GenerateResult["response"] = {}
    let finish: Extract<Part, { type: "finish" }> | undefined
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      const part = next.value
      if (part.type === "error") throw part.error
      if (part.type === "stream-start") warnings = part.warnings
      else if (part.type === "finish") finish = part
      else if (part.type === "response-metadata") {
        const { type: _type, ...rest } = part
        metadata = rest
      } else parts.push(part)
    }
    const generated: LanguageModelV4GenerateResult | undefined = finish && {
      content: foldDeltas(
        parts,
        (part): part is Extract<Part, { type: "tool-call" | "tool-result" }> =>
          part.type === "tool-call" || part.type === "tool-result",
        (type, text): LanguageModelV4Content => ({ type, text }),
      ) as Array<LanguageModelV4Content>,
      finishReason: finish.finishReason,
      usage: finish.usage,
      ...(finish.providerMetadata === undefined ? {} : { providerMetadata: finish.providerMetadata }),
      request: result.request ?? {},
      response: { ...metadata, headers: result.response?.headers ?? {} },
      warnings,
    }
    if (generated === undefined) throw new Error("The Friendli stream ended without a finish part.")
    return generated
  }
}
