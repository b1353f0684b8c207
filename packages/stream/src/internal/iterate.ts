/** The plain facade's `AsyncIterable`: batches from the shared pull loop, handed out one item per `next()`. */
import type { Codec } from "./codec.ts"
import { jsonDecoder } from "./fronts.ts"
import type { DecodeOptions } from "./options.ts"
import { resolveOptions } from "./options.ts"
import { BodyPuller } from "./pull.ts"
import type { ByteStream } from "./web.ts"

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined }

class BatchIterator<A> implements AsyncIterableIterator<A> {
  private batch: Array<A> = []
  private i = 0
  private readonly puller: BodyPuller<A>

  constructor(puller: BodyPuller<A>) {
    this.puller = puller
  }

  next(): Promise<IteratorResult<A>> {
    if (this.i < this.batch.length) return Promise.resolve({ done: false, value: this.batch[this.i++] as A })
    return new Promise((resolve, reject) =>
      this.puller.pull({
        batch: (out) => {
          this.batch = out
          this.i = out.length > 0 ? 1 : 0
          resolve(out.length > 0 ? { done: false, value: out[0] as A } : DONE)
        },
        fail: (error) => reject(error),
      }),
    )
  }

  /** `break` (or `return`) out of `for await`: the body is cancelled. */
  return(): Promise<IteratorResult<A>> {
    this.batch = []
    return this.puller.cancel().then(() => DONE)
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
): AsyncIterable<A> => {
  resolveOptions(options)
  const make = jsonDecoder(codec, options)
  return {
    [Symbol.asyncIterator]: () => new BatchIterator(new BodyPuller(body, make())),
  }
}
