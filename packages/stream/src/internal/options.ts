/** Decoder options, resolved with their defaults. */

/** 8 MiB. */
export const DEFAULT_MAX_EVENT_BYTES = 8 * 1024 * 1024

/** What the decoders accept, every member optional. */
export interface DecodeOptions {
  readonly maxEventBytes?: number | undefined
  readonly requireDone?: boolean | undefined
  readonly validation?: "strict" | "compatible" | undefined
}

/** The options with every default filled in. */
export interface ResolvedOptions {
  readonly maxEventBytes: number
  readonly requireDone: boolean
  readonly validation: "strict" | "compatible"
}

export const resolveOptions = (options: DecodeOptions | undefined): ResolvedOptions => {
  const maxEventBytes = options?.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES
  if (!(Number.isInteger(maxEventBytes) && maxEventBytes > 0)) {
    throw new RangeError(`maxEventBytes must be a positive integer, got ${String(maxEventBytes)}`)
  }
  return {
    maxEventBytes,
    requireDone: options?.requireDone ?? true,
    validation: options?.validation ?? "strict",
  }
}
