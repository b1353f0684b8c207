// vitest global setup of the workerd suite, run in Node before the pool starts (workerd cannot listen on a socket):
// two mocks on real sockets, one for the adapter suite and one for the proxy tests (their records must not mix),
// whose URLs become Worker bindings (package.json: "injectBindings").
import { MOCK_OPTIONS, TOKEN } from "@friendli-stream/adapter-suite/mock"
import { createMockFriendli } from "@friendli-stream/testing"
import { serveNode } from "@friendli-stream/testing/node"

interface Project {
  provide(key: string, value: string): void
}

export default async function setup(project: Project): Promise<() => Promise<void>> {
  const suiteMock = await serveNode(createMockFriendli(MOCK_OPTIONS))
  const proxyMock = await serveNode(createMockFriendli(MOCK_OPTIONS))
  project.provide("SUITE_MOCK_URL", suiteMock.url)
  project.provide("PROXY_MOCK_URL", proxyMock.url)
  project.provide("FRIENDLI_BASE_URL", `${proxyMock.url}/serverless`)
  project.provide("FRIENDLI_TOKEN", TOKEN)
  return async () => {
    await Promise.all([suiteMock.close(), proxyMock.close()])
  }
}
