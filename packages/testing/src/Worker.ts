/**
 * The mock as a Cloudflare Worker (`export default { fetch }`), for `wrangler dev` and workerd tests.
 *
 * Environment variables (all optional): `MOCK_TOKENS` (comma-separated accepted bearer tokens), `MOCK_MODELS`
 * (comma-separated known models), `MOCK_FAULTS` (a fault spec for every request). A `reset` fault errors the
 * response body mid-stream, which workerd turns into an aborted response.
 *
 * @since 0.1.0
 */
import { createMockFriendli, type MockFriendli } from "./MockFriendli.ts"

/**
 * The Worker's environment variables.
 *
 * @since 0.1.0
 */
export interface MockWorkerEnv {
  readonly MOCK_TOKENS?: string
  readonly MOCK_MODELS?: string
  readonly MOCK_FAULTS?: string
}

const list = (value: string | undefined): ReadonlyArray<string> | undefined =>
  value === undefined || value.trim() === "" ? undefined : value.split(",").map((s) => s.trim())

let mock: MockFriendli | undefined

/**
 * The mock of this Worker isolate (created on the first request, from the environment).
 *
 * @since 0.1.0
 */
export const workerMock = (env: MockWorkerEnv = {}): MockFriendli => {
  if (mock === undefined) {
    const tokens = list(env.MOCK_TOKENS)
    const models = list(env.MOCK_MODELS)
    mock = createMockFriendli({
      ...(tokens === undefined ? {} : { tokens }),
      ...(models === undefined ? {} : { models }),
      ...(env.MOCK_FAULTS === undefined || env.MOCK_FAULTS === "" ? {} : { faults: env.MOCK_FAULTS }),
    })
  }
  return mock
}

/**
 * The Worker: every request goes to the isolate's mock.
 *
 * @since 0.1.0
 */
export default {
  fetch: (request: Request, env: MockWorkerEnv = {}): Promise<Response> => workerMock(env).fetch(request),
}
