// The adapter conformance suite on Bun: the mock served by Bun.serve, the client on Bun's fetch.
import { adapterSuite, serveLocalMock } from "@friendli-stream/adapter-suite"
import { serveBun } from "@friendli-stream/testing/bun"
import { createClient, layer } from "../../src/index.ts"

adapterSuite({ name: "Bun", createClient, layer, mock: () => serveLocalMock(serveBun) })
