/** What to start: a wrangler config, where to listen and which variables to bind. */
export interface StartWorkerOptions {
  /** The absolute path of the Worker's wrangler config (`wrangler.jsonc`). */
  readonly config: string
  /** The port on 127.0.0.1 (default 0: a free one). */
  readonly port?: number
  /** Plain-text bindings of the Worker (`env.NAME`), over those of the config. */
  readonly vars?: Readonly<Record<string, string>>
}

/** A running Worker. */
export interface StartedWorker {
  /** Its origin, e.g. `http://127.0.0.1:8787` (no trailing slash). */
  readonly url: string
  /** Stops the Worker and wrangler's dev server. */
  stop(): Promise<void>
}

export declare const startWorker: (options: StartWorkerOptions) => Promise<StartedWorker>
