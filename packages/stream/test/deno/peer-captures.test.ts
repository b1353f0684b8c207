import { peerCaptureSuite } from "../peer-captures.ts"

peerCaptureSuite("deno")
