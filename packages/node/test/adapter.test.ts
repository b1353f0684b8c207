// The adapter conformance suite on Node: the mock served by node:http, the client on undici.
import { adapterSuite, serveLocalMock } from "@friendli-stream/adapter-suite"
import { serveNode } from "@friendli-stream/testing/node"
import { createClient, layer } from "../src/index.ts"

adapterSuite({ name: "Node", createClient, layer, mock: () => serveLocalMock(serveNode) })
