import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import { ArgsError, DEFAULT_PORT, parseArgs } from "../src/bin/args.ts"

describe("the standalone servers' options", () => {
  it("defaults to 127.0.0.1 on a port wrangler dev does not take (8787), any token, any model, no faults", () => {
    assert.notEqual(DEFAULT_PORT, 8787)
    assert.deepEqual(parseArgs([]), { port: DEFAULT_PORT, hostname: "127.0.0.1", mock: {} })
  })

  it("reads --port, --host, repeated --token and --model, and --faults, also as --name=value", () => {
    assert.deepEqual(
      parseArgs(["--port", "0", "--host=0.0.0.0", "--token", "a", "--token=b", "--model", "m", "--faults", "delay:5"]),
      { port: 0, hostname: "0.0.0.0", mock: { tokens: ["a", "b"], models: ["m"], faults: "delay:5" } },
    )
  })

  it("asks for help, and refuses unknown options and bad ports naming them", () => {
    assert.deepEqual(parseArgs(["--help"]), { help: true })
    assert.throws(
      () => parseArgs(["--verbose"]),
      (e) => e instanceof ArgsError && /--verbose/.test(e.message),
    )
    assert.throws(() => parseArgs(["--port", "99999"]), /--port must be 0 to 65535, got "99999"/)
    assert.throws(() => parseArgs(["--port="]), /--port must be 0 to 65535, got ""/)
    assert.throws(() => parseArgs(["--token"]), /--token needs a value/)
  })
})
