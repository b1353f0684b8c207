/**
 * Layer 1: bytes -> text. WHATWG HTML §9.2.5 "Parsing an event stream"
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream): the stream is decoded
 * with "UTF-8 decode", which drops ONE leading BOM (a second one is text), and invalid sequences become U+FFFD. A
 * streaming `TextDecoder` keeps a multi-byte character, or the BOM itself, that is split across reads intact.
 *
 * The decoder keeps every BOM (`ignoreBOM: true`) and this layer drops the leading one itself: Node 24's
 * `TextDecoder` drops two BOMs when the first one is split across the first two reads (Node 22, Deno, Bun and workerd
 * drop one, as the Encoding standard says), which would turn `\uFEFF\uFEFFdata: x` into an event.
 */
import { makeTextDecoder } from "./byteStream.ts"

const STREAM = { stream: true } as const

const BOM = 0xfeff

/** A streaming UTF-8 decoder: `push` each read, `end` once. */
export class Utf8Decoder {
  private readonly decoder = makeTextDecoder()
  /** No text came out yet: the first character, if it is a BOM, is still to be dropped. */
  private atStart = true

  /** Decodes one read; bytes of a character that is not complete yet are held back. */
  push(bytes: Uint8Array): string {
    const text = this.decoder.decode(bytes, STREAM)
    return this.atStart ? this.dropBom(text) : text
  }

  /** Flushes the decoder: an incomplete trailing character becomes U+FFFD. */
  end(): string {
    const text = this.decoder.decode()
    return this.atStart ? this.dropBom(text) : text
  }

  private dropBom(text: string): string {
    if (text.length === 0) return text
    this.atStart = false
    return text.charCodeAt(0) === BOM ? text.slice(1) : text
  }
}
