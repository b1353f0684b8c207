/**
 * Layer 1: bytes -> text. WHATWG HTML §9.2.5 "Parsing an event stream": the stream is decoded with
 * "UTF-8 decode" (a leading BOM is dropped, invalid sequences become U+FFFD). A streaming `TextDecoder` keeps a
 * multi-byte character, or the BOM itself, that is split across reads intact.
 */
import { makeTextDecoder } from "./web.ts"

const STREAM = { stream: true } as const

/** A streaming UTF-8 decoder: `push` each read, `end` once. */
export class Utf8Decoder {
  private readonly decoder = makeTextDecoder()

  /** Decodes one read; bytes of a character that is not complete yet are held back. */
  push(bytes: Uint8Array): string {
    return this.decoder.decode(bytes, STREAM)
  }

  /** Flushes the decoder: an incomplete trailing character becomes U+FFFD. */
  end(): string {
    return this.decoder.decode()
  }
}
