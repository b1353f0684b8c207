/** The plain facade's `AsyncIterable`: batches from the shared pull loop, handed out one item per `next()`. */

import type { ByteStream } from "./byteStream.ts"
import type { Codec } from "./codec.ts"
import { jsonDecoder, type MakeEnd } from "./jsonDecode.ts"
import type { DecodeOptions } from "./options.ts"
import { resolveOptions } from "./options.ts"
import { type BatchWaiter, BodyPuller } from "./pull.ts"

/** The result `next()` gives once an iterator is finished (one frozen object, shared by every iterator). */
export const iterationDone: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined })

/** Hands out one batch's items one `next()` at a time; the waiter of its own pulls (no callbacks made per pull). */
class BatchIterator<A> implements AsyncIterableIterator<A>, BatchWaiter<A> {
  private items: Array<A> = []
  private i = 0
  private resolve: ((result: IteratorResult<A>) => void) | undefined = undefined
  private reject: ((error: unknown) => void) | undefined = undefined
  private readonly puller: BodyPuller<A>

  constructor(puller: BodyPuller<A>) {
    this.puller = puller
  }

  next(): Promise<IteratorResult<A>> {
    if (this.i < this.items.length) return Promise.resolve({ done: false, value: this.items[this.i++] as A })
    return new Promise(this.wait)
  }

  private readonly wait = (resolve: (result: IteratorResult<A>) => void, reject: (error: unknown) => void): void => {
    this.resolve = resolve
    this.reject = reject
    this.puller.pull(this)
  }

  readonly batch = (out: Array<A>): void => {
    this.items = out
    this.i = out.length > 0 ? 1 : 0
    const resolve = this.resolve as (result: IteratorResult<A>) => void
    this.resolve = this.reject = undefined
    resolve(out.length > 0 ? { done: false, value: out[0] as A } : iterationDone)
  }

  readonly fail = (error: unknown): void => {
    const reject = this.reject as (error: unknown) => void
    this.resolve = this.reject = undefined
    reject(error)
  }

  /** `break` (or `return`) out of `for await`: the body is cancelled. */
  return(): Promise<IteratorResult<A>> {
    this.items = []
    return this.puller.cancel().then(() => iterationDone)
  }

  [Symbol.asyncIterator](): this {
    return this
  }
}

/** An `AsyncIterable` of the outputs of one body (it can be iterated once, like the body). */
export const iterateBody = <A>(
  body: ByteStream,
  codec: Codec<A>,
  options: DecodeOptions | undefined,
  end?: MakeEnd<A>,
): AsyncIterable<A> => {
  resolveOptions(options)
  const make = jsonDecoder(codec, options, end)
  return {
    [Symbol.asyncIterator]: () => new BatchIterator(new BodyPuller(body, make())),
  }
}
