/**
 * The conformance suite of the runtime adapters: every adapter's test file serves the mock on its runtime and
 * calls `adapterSuite`, which declares the same tests everywhere (streams, accumulation, faults and their typed
 * errors, status bodies, retries, timeouts, cancellation; the Responses, Messages and transcription APIs; a program written for the openai package) with `@friendli-stream/test-harness`.
 *
 * @example
 * import { adapterSuite, serveLocalMock } from "@friendli-stream/adapter-suite"
 * import { serveDeno } from "@friendli-stream/testing/deno"
 * import { createClient, layer } from "../../src/index.ts"
 *
 * adapterSuite({ name: "Deno", createClient, layer, mock: () => serveLocalMock(serveDeno) })
 *
 * @since 0.1.0
 */
import { afterAll, beforeAll, describe } from "@friendli-stream/test-harness"
import { type AdapterUnderTest, makeContext } from "./support.ts"
import { apiTests } from "./tests/apis.ts"
import { cancelTests } from "./tests/cancel.ts"
import { faultTests } from "./tests/faults.ts"
import { openaiShapeTests } from "./tests/openaiShape.ts"
import { protocolTests } from "./tests/protocols.ts"
import { reasoningToolTests } from "./tests/reasoningTools.ts"
import { retryTests } from "./tests/retries.ts"
import { streamTests } from "./tests/stream.ts"

export * from "./mock.ts"
export type { AdapterClientOptions, AdapterUnderTest } from "./support.ts"
export { chunksSent, eventually, testClientOptions } from "./support.ts"

/**
 * Declares the whole conformance suite for one adapter, under `describe("<name> adapter")`.
 *
 * @since 0.1.0
 */
export const adapterSuite = (adapter: AdapterUnderTest): void =>
  describe(`${adapter.name} adapter`, () => {
    const context = makeContext(adapter)
    beforeAll(() => context.start(), 10_000)
    afterAll(() => context.stop(), 10_000)
    streamTests(context)
    reasoningToolTests(context)
    faultTests(context)
    retryTests(context)
    cancelTests(context)
    apiTests(context)
    protocolTests(context)
    openaiShapeTests(context)
  })
