import { captureSuite } from "../captures.ts"

captureSuite("bun")
