import assert from "node:assert/strict"
import { describe, it } from "@friendli-stream/test-harness"
import {
  type DeploymentKind,
  defaultBaseUrls,
  deploymentKinds,
  endpointUrl,
  isDeploymentKind,
} from "../src/Deployment.ts"

describe("defaultBaseUrls", () => {
  it("serves serverless models from the shared Friendli API", () => {
    assert.equal(defaultBaseUrls.serverless, "https://api.friendli.ai/serverless")
  })

  it("serves dedicated endpoints from the dedicated Friendli API", () => {
    assert.equal(defaultBaseUrls.dedicated, "https://api.friendli.ai/dedicated")
  })

  it("expects a Friendli Container on localhost port 8000 over plain HTTP", () => {
    assert.equal(defaultBaseUrls.container, "http://localhost:8000")
  })

  it("has a base URL for every deployment kind and for nothing else", () => {
    assert.deepEqual(Object.keys(defaultBaseUrls).sort(), [...deploymentKinds].sort())
  })

  it("keeps every base URL free of a trailing slash and of the /v1 path", () => {
    for (const kind of deploymentKinds) {
      const url = defaultBaseUrls[kind]
      assert.ok(!url.endsWith("/"), `${kind}: ${url} ends with a slash`)
      assert.ok(!new URL(url).pathname.includes("/v1"), `${kind}: ${url} already has /v1`)
    }
  })
})

describe("deploymentKinds", () => {
  it("lists serverless, dedicated and container, in that order", () => {
    assert.deepEqual(deploymentKinds, ["serverless", "dedicated", "container"])
  })
})

describe("isDeploymentKind", () => {
  it("accepts each of the three deployment kinds", () => {
    for (const kind of ["serverless", "dedicated", "container"]) assert.equal(isDeploymentKind(kind), true, kind)
  })

  it("rejects names that differ only in case or surrounding spaces", () => {
    for (const name of ["Serverless", "DEDICATED", " container", "container "]) {
      assert.equal(isDeploymentKind(name), false, JSON.stringify(name))
    }
  })

  it("rejects unknown names and the empty string", () => {
    for (const name of ["", "serverles", "dedicated-endpoint", "local", "cloud"]) {
      assert.equal(isDeploymentKind(name), false, JSON.stringify(name))
    }
  })

  it("rejects values that are not strings", () => {
    for (const value of [undefined, null, 0, 1, true, {}, [], ["serverless"], new String("serverless")]) {
      assert.equal(isDeploymentKind(value), false, String(value))
    }
  })

  it("narrows an unknown value so that it can index the base URLs", () => {
    const input: unknown = JSON.parse('"dedicated"')
    assert.ok(isDeploymentKind(input))
    const kind: DeploymentKind = input
    assert.equal(defaultBaseUrls[kind], "https://api.friendli.ai/dedicated")
  })
})

describe("endpointUrl", () => {
  it("joins a serverless chat completions URL onto the default base URL", () => {
    assert.equal(
      endpointUrl("serverless", "/v1/chat/completions"),
      "https://api.friendli.ai/serverless/v1/chat/completions",
    )
  })

  it("joins a dedicated completions URL onto the default base URL", () => {
    assert.equal(endpointUrl("dedicated", "/v1/completions"), "https://api.friendli.ai/dedicated/v1/completions")
  })

  it("joins the tool-assisted chat path, which sits outside /v1", () => {
    assert.equal(
      endpointUrl("serverless", "/tools/v1/chat/completions"),
      "https://api.friendli.ai/serverless/tools/v1/chat/completions",
    )
  })

  it("points a container at localhost by default", () => {
    assert.equal(endpointUrl("container", "/v1/completions"), "http://localhost:8000/v1/completions")
  })

  it("uses a given base URL instead of the kind's default", () => {
    assert.equal(
      endpointUrl("container", "/v1/chat/completions", "http://gpu-box:8000"),
      "http://gpu-box:8000/v1/chat/completions",
    )
  })

  it("puts exactly one slash between a base URL with a trailing slash and the path", () => {
    assert.equal(
      endpointUrl("container", "/v1/completions", "http://gpu-box:8000/"),
      "http://gpu-box:8000/v1/completions",
    )
  })

  it("drops every trailing slash of the base URL, not just one", () => {
    assert.equal(
      endpointUrl("dedicated", "/v1/completions", "https://proxy.example/friendli///"),
      "https://proxy.example/friendli/v1/completions",
    )
  })

  it("keeps a path prefix of a given base URL", () => {
    assert.equal(
      endpointUrl("serverless", "/v1/chat/completions", "https://gateway.example/ai/friendli"),
      "https://gateway.example/ai/friendli/v1/chat/completions",
    )
  })

  it("builds a URL that the WHATWG URL parser accepts for every kind and path", () => {
    const paths = ["/v1/completions", "/v1/chat/completions", "/tools/v1/chat/completions"] as const
    for (const kind of deploymentKinds) {
      for (const path of paths) {
        const url = new URL(endpointUrl(kind, path))
        assert.equal(url.pathname.endsWith(path), true, `${kind} ${path}: ${url.href}`)
        assert.equal(url.pathname.includes("//"), false, `${kind} ${path}: ${url.href}`)
      }
    }
  })
})
