/**
 * The body of an undici response (`NodeHttpClient.layerUndici`) as the Web byte stream the client's batching body
 * reader reads: a Node `Readable` in paused mode, where one `read()` takes everything buffered so far (a network
 * read often holds several events), and a read that finds nothing waits for the next `readable`, `end` or `error`.
 * No Web stream, no Effect stream and nothing per read but the read's own promise and result.
 */
import { Readable } from "node:stream"
import { ResponseBody } from "@friendli-stream/client"
import type { ByteStreamLike } from "@friendli-stream/stream"

type ReadResult =
  | { readonly done: false; readonly value: Uint8Array }
  | { readonly done: true; readonly value?: undefined }

const DONE: ReadResult = Object.freeze({ done: true })

class ReadableReader {
  private resolve: ((result: ReadResult) => void) | undefined = undefined
  private reject: ((error: unknown) => void) | undefined = undefined
  private ended = false
  private failure: { readonly error: unknown } | undefined = undefined
  private readonly body: Readable

  constructor(body: Readable) {
    this.body = body
    body.on("readable", this.onReadable)
    body.on("end", this.onEnd)
    body.on("error", this.onError)
    body.on("close", this.onClose)
  }

  read(): Promise<ReadResult> {
    if (this.failure !== undefined) return Promise.reject(this.failure.error)
    const value = this.body.read() as Uint8Array | null
    if (value !== null) return Promise.resolve({ done: false, value })
    if (this.ended) return Promise.resolve(DONE)
    return new Promise(this.wait)
  }

  cancel(): Promise<void> {
    this.detach()
    this.settle(DONE)
    this.body.destroy()
    return Promise.resolve()
  }

  releaseLock(): void {
    this.detach()
  }

  private readonly wait = (resolve: (result: ReadResult) => void, reject: (error: unknown) => void): void => {
    this.resolve = resolve
    this.reject = reject
  }

  private settle(result: ReadResult): void {
    const resolve = this.resolve
    if (resolve === undefined) return
    this.resolve = this.reject = undefined
    resolve(result)
  }

  private fail(error: unknown): void {
    this.failure = { error }
    const reject = this.reject
    if (reject === undefined) return
    this.resolve = this.reject = undefined
    reject(error)
  }

  private readonly onReadable = (): void => {
    if (this.resolve === undefined) return
    const value = this.body.read() as Uint8Array | null
    if (value !== null) this.settle({ done: false, value })
  }

  private readonly onEnd = (): void => {
    this.ended = true
    this.settle(DONE)
  }

  private readonly onError = (error: unknown): void => {
    if (!this.ended) this.fail(error)
  }

  private readonly onClose = (): void => {
    if (!this.ended && this.failure === undefined) {
      this.fail(new Error("The response body was closed before its end."))
    }
  }

  private detach(): void {
    this.body.off("readable", this.onReadable)
    this.body.off("end", this.onEnd)
    this.body.off("error", this.onError)
    this.body.off("close", this.onClose)
  }
}

/** A Node `Readable` as a Web byte stream, for one reader. */
export const readableByteStream = (body: Readable): ByteStreamLike => ({
  getReader: () => new ReadableReader(body),
})

/**
 * The body of a streamed response: an undici response's own `Readable` (`source.body` of `NodeHttpClient`'s
 * response), or a `fetch` response's Web body.
 */
export const nodeResponseBody: ResponseBody.ResponseBodyReader = (response) => {
  const body = (response as { readonly source?: { readonly body?: unknown } }).source?.body
  return body instanceof Readable ? readableByteStream(body) : ResponseBody.webBody(response)
}
