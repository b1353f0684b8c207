import { captureSuite } from "../captures.ts"

captureSuite("deno")
