/**
 * How the client reads the body of a streamed response: as a Web byte stream, read by the same batching body reader
 * as the plain decoders (`decodeChatCompletionStream`, ...), whatever `HttpClient` sent the request. The default
 * takes the body of a `fetch` response (`HttpClientResponse.toWeb`); a runtime adapter whose `HttpClient` answers
 * with something else (Node's undici) provides its own with its `HttpClient` layer. A response it has no byte
 * stream for is read through `response.stream`.
 *
 * @since 0.3.0
 */
import type { ByteStreamLike } from "@friendli-stream/stream"
import * as Context from "effect/Context"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Option from "effect/Option"

/**
 * The body of a response as a byte stream, or `undefined` when there is none to read that way.
 *
 * @since 0.3.0
 */
export type ResponseBodyReader = (response: HttpClientResponse.HttpClientResponse) => ByteStreamLike | undefined

/**
 * The body of a `fetch` response (`HttpClientResponse.toWeb`), `undefined` for any other.
 *
 * @since 0.3.0
 */
export const webBody: ResponseBodyReader = (response) => {
  const web = HttpClientResponse.toWeb(response)
  return Option.isSome(web) && web.value.body !== null ? (web.value.body as ByteStreamLike) : undefined
}

/**
 * The service the client reads response bodies with; {@link webBody} unless a layer provides another.
 *
 * @since 0.3.0
 */
export const ResponseBody: Context.Reference<ResponseBodyReader> = Context.Reference<ResponseBodyReader>(
  "@friendli-stream/client/ResponseBody",
  { defaultValue: () => webBody },
)
