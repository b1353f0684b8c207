// The first module the package's entries import: on Node older than 22.19, importing the package fails here with
// one line naming the Node it needs (`@friendli-stream/core/require-node`), before any dependency runs.
import { requireNode } from "@friendli-stream/core/require-node"

requireNode("@friendli-stream/deno")
