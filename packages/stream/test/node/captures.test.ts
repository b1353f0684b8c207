import { captureSuite } from "../captures.ts"

captureSuite("node")
