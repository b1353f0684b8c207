// One filter for the output of workerd (wrangler dev, and the Workers test pool): the sample apps' launcher
// (apps/sample-service/bin/launch.ts) passes its children's output through it.

/**
 * Lines of the app's output that only say a client went away (workerd logs a stack for each), with the indented
 * stack lines that follow them.
 */
const NOISE =
  /Connection reset by peer|Network connection lost|disconnected: worker_do_not_log|connect\(\): Connection refused|MockConnectionReset/

/** Passes text on line by line, leaving out {@link NOISE} and the stack lines that follow it. */
export const noiseFilter = (write: (text: string) => void): { push(text: string): void; end(): void } => {
  let pending = ""
  let inNoise = false
  const line = (l: string): void => {
    if (NOISE.test(l)) {
      inNoise = true
      return
    }
    // a stack goes on with indented lines ("    at …") or kj's "stack: …" lines
    if (inNoise && (/^\s+\S/.test(l) || /^stack:/.test(l))) return
    inNoise = false
    write(`${l}\n`)
  }
  return {
    push(text) {
      const lines = (pending + text).split("\n")
      pending = lines.pop() ?? ""
      for (const l of lines) line(l)
    },
    end() {
      if (pending !== "") line(pending)
      pending = ""
    },
  }
}
