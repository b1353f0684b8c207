// vitest global setup of the workerd suite, run in Node before the pool starts (workerd cannot listen on a socket):
// a mock that wants the token `flp_right`, for the tests of the Worker with a token; its URL becomes the binding
// TOKEN_MOCK_URL (package.json: "injectBindings").
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"

interface Project {
  provide(key: string, value: string): void
}

export default async function setup(project: Project): Promise<() => Promise<void>> {
  const mock = await serveNode(createMockFriendli({ tokens: ["flp_right"] }))
  project.provide("TOKEN_MOCK_URL", mock.url)
  return () => mock.close()
}
