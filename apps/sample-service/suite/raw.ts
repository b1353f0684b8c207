// A raw HTTP/1.1 request over node:net (which Deno and Bun have too), for what fetch cannot send: a body that never
// finishes, a chunked body sent piece by piece. Resolves with the answer's status and text once its JSON error came.
import { createConnection } from "node:net"

/** What came back: the status line's code and everything read. */
export interface RawAnswer {
  readonly status: number
  readonly text: string
}

/**
 * Sends `head` (the request line and headers, without the blank line) and `body` pieces to `url`'s host, keeping the
 * connection open, and resolves once the answer holds a whole JSON error (`…}}`), then closes the socket.
 */
export const rawRequest = (url: string, head: string, body: ReadonlyArray<string>): Promise<RawAnswer> => {
  const { hostname, port } = new URL(url)
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port) })
    let text = ""
    socket.once("error", reject)
    socket.once("connect", () => {
      socket.write(`${head}\r\nHost: ${hostname}:${port}\r\n\r\n`)
      for (const piece of body) socket.write(piece)
    })
    socket.on("data", (chunk: Uint8Array) => {
      text += new TextDecoder().decode(chunk)
      if (/^HTTP\/1\.1 (\d{3})/.test(text) && text.includes("}}")) {
        socket.destroy()
        resolve({ status: Number(text.slice(9, 12)), text })
      }
    })
    socket.once("close", () => reject(new Error(`the connection closed before a whole answer: ${text}`)))
  })
}
