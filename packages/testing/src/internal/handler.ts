/**
 * The mock Friendli server as one Web `Request -> Response` function, plus the state it keeps (records, queued
 * faults, in-flight responses). Only Web APIs are used, so it runs unchanged on Node, Deno, Bun and workerd.
 */

import { type BodyContext, jsonBody, sleep, sseBody } from "./body.ts"
import { chatBody, chatFrames, readChat } from "./chat.ts"
import { completionsBody, completionsFrames, type ResponseMeta, readCompletions } from "./completions.ts"
import { control } from "./control.ts"
import { embeddingsBody } from "./embeddings.ts"
import {
  badFault,
  injectedStatus,
  methodNotAllowed,
  notFound,
  rateLimited,
  unauthorized,
  unknownModel,
  unprocessable,
} from "./errors.ts"
import {
  applyFaultSpec,
  FAULT_HEADER,
  FAULT_PATH_PREFIX,
  FAULT_QUERY,
  type FaultPlan,
  FaultSpecError,
} from "./faults.ts"
import { imagesBody } from "./images.ts"
import { messagesBody, messagesFailure, messagesFrames, readMessages } from "./messages.ts"
import { hashString, mixSeeds } from "./prng.ts"
import { Recorder } from "./records.ts"
import { readResponses, responsesBody, responsesFailure, responsesFrames } from "./responses.ts"
import { matchRoute, type Route } from "./routes.ts"
import {
  readForm,
  readTranscription,
  type TranscriptionForm,
  transcriptionBody,
  transcriptionFrames,
} from "./transcriptions.ts"
import { DEFAULT_MODELS, detokenizeBody, modelsBody, tokenizeBody } from "./utility.ts"
import { isObject, type Json } from "./validate.ts"

/** Options of a mock instance. */
export interface MockOptions {
  readonly tokens?: ReadonlyArray<string> | undefined
  readonly models?: ReadonlyArray<string> | undefined
  readonly faults?: string | undefined
  readonly clock?: (() => number) | undefined
  readonly containerModel?: string | undefined
  readonly maxRecords?: number | undefined
}

/** The state and the handler of one mock instance. */
export class MockCore {
  readonly recorder: Recorder
  readonly queue: Array<string> = []
  private readonly active = new Map<string, AbortController>()

  constructor(readonly options: MockOptions = {}) {
    this.recorder = new Recorder(options.clock ?? Date.now, options.maxRecords)
    if (options.faults !== undefined) applyFaultSpec({}, options.faults) // fail early on a bad default
  }

  /** Ends every in-flight response (stalled ones included) and marks them `closed`. */
  closeAll(): void {
    for (const [id, controller] of this.active) {
      this.recorder.close(id)
      try {
        controller.abort()
      } catch {
        // workerd: a response of another request context cannot be touched from this one
      }
    }
    this.active.clear()
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    let path = url.pathname
    let pathFaults: string | undefined
    if (path.startsWith(FAULT_PATH_PREFIX)) {
      const rest = path.slice(FAULT_PATH_PREFIX.length)
      const slash = rest.indexOf("/")
      pathFaults = decodeURIComponent(slash < 0 ? rest : rest.slice(0, slash))
      path = slash < 0 ? "/" : rest.slice(slash)
    }
    if (path.startsWith("/_mock/")) return control(this, request, path, url)

    const route = matchRoute(path)
    const recorder = this.recorder
    const multipart =
      route?.api === "transcriptions" &&
      request.method === "POST" &&
      (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")
    let form: TranscriptionForm | undefined
    let formError: string | undefined
    if (multipart) {
      try {
        form = await readForm(await request.formData())
      } catch (error) {
        formError = error instanceof Error ? error.message : String(error)
      }
    }
    const text = request.method === "GET" || request.method === "HEAD" || multipart ? "" : await request.text()
    let parsed: unknown = form?.fields
    let jsonError = false
    if (text !== "") {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
        jsonError = true
      }
    }
    const headers: Record<string, string> = {}
    request.headers.forEach((value, key) => {
      headers[key] = value
    })

    // faults: default < queued < path prefix < query < header
    const specs: Array<string> = []
    if (this.options.faults !== undefined) specs.push(this.options.faults)
    if (route !== undefined && this.queue.length > 0) specs.push(this.queue.shift()!)
    if (pathFaults !== undefined) specs.push(pathFaults)
    specs.push(...url.searchParams.getAll(FAULT_QUERY))
    const header = request.headers.get(FAULT_HEADER)
    if (header !== null) specs.push(header)
    const spec = specs.filter((s) => s.trim() !== "").join(",")

    const id = recorder.open({
      method: request.method,
      path,
      url: request.url,
      headers,
      body: parsed,
      deployment: route?.deployment,
      api: route?.api,
      faults: spec,
    })
    const controller = new AbortController()
    const onAbort = () => {
      if (recorder.isPending(id)) recorder.event(id, { type: "disconnect", at: recorder.clock() })
      controller.abort()
    }
    if (request.signal.aborted) onAbort()
    else request.signal.addEventListener("abort", onAbort, { once: true })

    const respond = (response: Response): Response => {
      response.headers.set("x-mock-request-id", id)
      response.headers.set("x-request-id", id)
      recorder.event(id, { type: "response", at: recorder.clock(), status: response.status })
      recorder.event(id, { type: "complete", at: recorder.clock() })
      request.signal.removeEventListener("abort", onAbort)
      return response
    }

    let plan: FaultPlan
    try {
      plan = applyFaultSpec({}, spec)
    } catch (error) {
      if (error instanceof FaultSpecError) return respond(badFault(error.message))
      throw error
    }

    if (plan.delayFirstMs !== undefined && plan.delayFirstMs > 0) {
      this.active.set(id, controller)
      await sleep(plan.delayFirstMs, controller.signal)
      this.active.delete(id)
    }

    if (route === undefined) return respond(notFound())
    if (request.method !== (route.method ?? "POST")) return respond(methodNotAllowed(route.method ?? "POST"))

    if (route.deployment !== "container" && route.api !== "models") {
      const auth = request.headers.get("authorization") ?? ""
      const match = /^Bearer\s+(\S+)\s*$/i.exec(auth)
      if (match === null) return respond(unauthorized("missing bearer token; send 'Authorization: Bearer <token>'."))
      const tokens = this.options.tokens
      if (tokens !== undefined && !tokens.includes(match[1]!)) {
        return respond(unauthorized("the bearer token is not valid."))
      }
    }

    if (plan.rateLimit !== undefined) return respond(rateLimited(plan.rateLimit))
    if (plan.status !== undefined) return respond(injectedStatus(plan.status))

    if (route.api === "models") {
      const created = Math.floor(this.recorder.clock() / 1000)
      return respond(jsonResponse(modelsBody(this.options.models ?? DEFAULT_MODELS, created)))
    }
    if (route.api === "transcriptions" && form === undefined) {
      return respond(
        unprocessable([
          {
            loc: [],
            msg:
              formError === undefined
                ? "Expected a multipart/form-data body (the audio in its 'file' field)"
                : `Malformed multipart/form-data body: ${formError}`,
            type: "value_error",
          },
        ]),
      )
    }
    if (jsonError) return respond(unprocessable([{ loc: [0], msg: "JSON decode error", type: "json_invalid" }]))
    if (!isObject(parsed)) {
      return respond(
        unprocessable([
          { loc: [], msg: "Input should be a valid dictionary", type: "dict_type", input: parsed ?? null },
        ]),
      )
    }

    const model = this.model(route, parsed)
    if (model instanceof Response) return respond(model)

    const container = route.deployment === "container"
    if (route.api === "tokenize" || route.api === "detokenize") {
      const read = (route.api === "tokenize" ? tokenizeBody : detokenizeBody)(parsed, container)
      if (!read.ok) return respond(unprocessable(read.issues))
      return respond(jsonResponse(read.body))
    }

    const unique = hex32(mixSeeds(hashString(id), this.recorder.clock()))
    const meta: ResponseMeta = {
      id: `${ID_PREFIXES[route.api] ?? "chatcmpl-"}${unique}`,
      created: Math.floor(this.recorder.clock() / 1000),
      model,
    }
    if (route.api === "embeddings") {
      const read = embeddingsBody(parsed, meta)
      return respond(read.ok ? jsonResponse(read.body) : unprocessable(read.issues))
    }
    if (route.api === "images-generations" || route.api === "images-edits") {
      const op = route.api === "images-edits" ? "edits" : "generations"
      const read = imagesBody(parsed, container ? "container" : "dedicated", op)
      return respond(read.ok ? jsonResponse(read.body) : unprocessable(read.issues))
    }

    let stream: boolean
    let frames: () => ReturnType<typeof completionsFrames>
    let json: () => Json
    let failure: BodyContext["failure"]
    if (route.api === "responses") {
      const read = readResponses(parsed, container)
      if (!read.ok) return respond(unprocessable(read.issues))
      stream = read.request.stream
      frames = () => responsesFrames(read.request, meta)
      json = () => responsesBody(read.request, meta)
      failure = (after) => ({ event: "response.failed", data: responsesFailure(meta, read.request.turn, after) })
    } else if (route.api === "messages") {
      const read = readMessages(parsed, container)
      if (!read.ok) return respond(unprocessable(read.issues))
      stream = read.request.stream
      frames = () => messagesFrames(read.request, meta)
      json = () => messagesBody(read.request, meta)
      failure = (after) => ({ event: "error", data: messagesFailure(after) })
    } else if (route.api === "transcriptions") {
      const read = readTranscription(form!, container)
      if (!read.ok) return respond(unprocessable(read.issues))
      stream = read.request.stream
      frames = () => transcriptionFrames(read.request)
      json = () => transcriptionBody(read.request)
    } else if (route.api === "completions") {
      const read = readCompletions(parsed, model)
      if (!read.ok) return respond(unprocessable(read.issues))
      stream = read.request.stream
      frames = () => completionsFrames(read.request, meta)
      json = () => completionsBody(read.request, meta)
    } else {
      const read = readChat(parsed, model, route.api === "tools-chat")
      if (!read.ok) return respond(unprocessable(read.issues))
      stream = read.request.stream
      frames = () => chatFrames(read.request, meta, plan.toolError === true)
      json = () => chatBody(read.request, meta)
    }

    this.active.set(id, controller)
    const ctx: BodyContext = {
      id,
      recorder,
      plan,
      signal: controller.signal,
      onCancel: () => {
        if (recorder.isPending(id)) recorder.event(id, { type: "disconnect", at: recorder.clock() })
        controller.abort()
      },
      onSettle: () => {
        this.active.delete(id)
        request.signal.removeEventListener("abort", onAbort)
      },
      failure,
    }
    const response = new Response(stream ? sseBody(frames(), ctx) : jsonBody(JSON.stringify(json()), ctx), {
      status: 200,
      headers: {
        "content-type": stream ? "text/event-stream" : "application/json",
        "cache-control": "no-cache",
        "x-request-id": id,
        "x-mock-request-id": id,
      },
    })
    recorder.event(id, { type: "response", at: recorder.clock(), status: 200 })
    return response
  }

  /** Checks the model field of the deployment kind; returns the model to echo, or an error response. */
  private model(route: Route, body: Json): string | Response {
    const model = body.model
    if (route.deployment === "container") {
      if (model === undefined || model === null) return this.options.containerModel ?? "mock-model"
      if (typeof model !== "string") {
        return unprocessable([
          { loc: ["model"], msg: "Input should be a valid string", type: "string_type", input: model },
        ])
      }
      return model
    }
    if (model === undefined || model === null)
      return unprocessable([{ loc: ["model"], msg: "Field required", type: "missing" }])
    if (typeof model !== "string" || model === "") {
      return unprocessable([
        { loc: ["model"], msg: "Input should be a non-empty string", type: "string_type", input: model },
      ])
    }
    if (route.deployment === "dedicated" && !/^[^:\s]+(:[^:\s]+)?$/.test(model)) {
      return unprocessable([
        {
          loc: ["model"],
          msg: "Input should be an endpoint id, optionally ENDPOINT_ID:ADAPTER_ROUTE",
          type: "string_pattern_mismatch",
          input: model,
        },
      ])
    }
    const known = this.options.models
    const name = route.deployment === "dedicated" ? model.split(":")[0]! : model
    if (known !== undefined && !known.includes(name)) return unknownModel(model)
    return model
  }
}

/** The id prefix of each API's response (`chatcmpl-` for the others). */
const ID_PREFIXES: Partial<Record<Route["api"], string>> = {
  completions: "cmpl-",
  responses: "resp_",
  messages: "msg_",
  transcriptions: "tr_",
  embeddings: "embd-",
}

const jsonResponse = (body: Json): Response =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } })

const hex32 = (seed: number): string => {
  let out = ""
  let s = seed
  for (let i = 0; i < 4; i++) {
    s = mixSeeds(s, i)
    out += s.toString(16).padStart(8, "0")
  }
  return out
}
