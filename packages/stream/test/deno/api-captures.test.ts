import { apiCaptureSuite } from "../api-captures.ts"

apiCaptureSuite("deno")
