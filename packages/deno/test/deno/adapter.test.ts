// The adapter conformance suite on Deno: the mock served by Deno.serve, the client on Deno's fetch.
import { adapterSuite, serveLocalMock } from "@friendli-stream/adapter-suite"
import { serveDeno } from "@friendli-stream/testing/deno"
import { createClient, layer } from "../../src/index.ts"

adapterSuite({ name: "Deno", createClient, layer, mock: () => serveLocalMock(serveDeno) })
