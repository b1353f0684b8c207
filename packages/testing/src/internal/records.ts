/**
 * What the mock saw: one record per request, with a timeline of what happened to its response.
 */

/**
 * Something that happened to a request's response, with the time (`clock()`, ms) it happened.
 *
 * @since 0.1.0
 */
export type RecordEvent =
  | { readonly type: "response"; readonly at: number; readonly status: number }
  | {
      readonly type: "chunk"
      readonly at: number
      readonly index: number
      readonly data: string
      readonly event?: string
    }
  | { readonly type: "comment"; readonly at: number }
  | { readonly type: "write"; readonly at: number; readonly bytes: number }
  | { readonly type: "fault"; readonly at: number; readonly fault: string }
  | { readonly type: "disconnect"; readonly at: number }
  | { readonly type: "reset"; readonly at: number }
  | { readonly type: "complete"; readonly at: number }

/**
 * How a request ended, as far as the mock knows.
 *
 * - `pending`: still being answered (or stalled),
 * - `completed`: the whole body was handed to the runtime,
 * - `disconnected`: the client went away (or cancelled) before the body was complete,
 * - `reset`: the mock reset the connection (the `reset` fault),
 * - `closed`: the mock was closed while the response was in flight.
 *
 * @since 0.1.0
 */
export type Outcome = "pending" | "completed" | "disconnected" | "reset" | "closed"

/**
 * The deployment a path belongs to.
 *
 * @since 0.1.0
 */
export type Deployment = "serverless" | "dedicated" | "container"

/**
 * The API a path belongs to.
 *
 * @since 0.1.0
 */
export type Api =
  | "completions"
  | "chat"
  | "tools-chat"
  | "responses"
  | "messages"
  | "transcriptions"
  | "tokenize"
  | "detokenize"
  | "models"
  | "embeddings"
  | "images-generations"
  | "images-edits"

/**
 * Everything recorded about one request.
 *
 * @since 0.1.0
 */
export interface RequestRecord {
  /** The mock's id for this request, also sent back in the `x-mock-request-id` response header. */
  readonly id: string
  readonly method: string
  /** The path, without a `/_fault/...` prefix. */
  readonly path: string
  readonly url: string
  /** Request headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  /** The parsed JSON body, the raw text when it was not JSON, or `undefined` when empty. */
  readonly body: unknown
  readonly deployment: Deployment | undefined
  readonly api: Api | undefined
  /** The fault spec in force, as one normalized string (`""` for none). */
  readonly faults: string
  readonly receivedAt: number
  readonly status: number | undefined
  readonly outcome: Outcome
  readonly disconnectedAt: number | undefined
  readonly completedAt: number | undefined
  readonly events: ReadonlyArray<RecordEvent>
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type Entry = Mutable<Omit<RequestRecord, "events">> & { events: Array<RecordEvent> }

/**
 * Options of `waitFor*` helpers.
 *
 * @since 0.1.0
 */
export interface WaitOptions {
  /** Give up after this many ms (default 5000), rejecting with an error that says what was awaited. */
  readonly timeoutMs?: number
}

/**
 * How many requests a mock remembers unless told otherwise: enough for any test, few enough that a long-running
 * service on the mock stays flat.
 *
 * @since 0.3.0
 */
export const DEFAULT_MAX_RECORDS = 1000

/** The recorder of one mock instance. */
export class Recorder {
  private readonly entries: Array<Entry> = []
  private readonly byId = new Map<string, Entry>()
  private readonly listeners = new Set<() => void>()
  private counter = 0

  /** `limit`: the most records kept; opening one more forgets the oldest (settled ones first). */
  constructor(
    readonly clock: () => number,
    readonly limit = DEFAULT_MAX_RECORDS,
  ) {}

  /** Starts a record and returns its id. */
  open(
    init: Omit<RequestRecord, "id" | "status" | "outcome" | "disconnectedAt" | "completedAt" | "events" | "receivedAt">,
  ): string {
    this.counter += 1
    const id = `req_${this.counter}`
    const entry: Entry = {
      ...init,
      id,
      receivedAt: this.clock(),
      status: undefined,
      outcome: "pending",
      disconnectedAt: undefined,
      completedAt: undefined,
      events: [],
    }
    this.entries.push(entry)
    this.byId.set(id, entry)
    if (this.entries.length > this.limit) this.forgetOne()
    this.notify()
    return id
  }

  /** Forgets the oldest settled record, or the oldest one when every record is still pending. */
  private forgetOne(): void {
    const settled = this.entries.findIndex((e) => e.outcome !== "pending")
    const [gone] = this.entries.splice(settled === -1 ? 0 : settled, 1)
    if (gone !== undefined) this.byId.delete(gone.id)
  }

  /** Updates fields that become known after the record was opened. */
  update(id: string, patch: Partial<Pick<RequestRecord, "body" | "deployment" | "api" | "faults">>): void {
    const entry = this.byId.get(id)
    if (entry === undefined) return
    Object.assign(entry, patch)
    this.notify()
  }

  /** Appends an event; `disconnect`, `reset` and `complete` also settle the outcome (first one wins). */
  event(id: string, event: RecordEvent): void {
    const entry = this.byId.get(id)
    if (entry === undefined) return
    if (event.type === "disconnect" || event.type === "reset" || event.type === "complete") {
      if (entry.outcome !== "pending") return
      entry.outcome = event.type === "disconnect" ? "disconnected" : event.type === "reset" ? "reset" : "completed"
      if (event.type === "disconnect") entry.disconnectedAt = event.at
      else entry.completedAt = event.at
    }
    if (event.type === "response") entry.status = event.status
    entry.events.push(event)
    this.notify()
  }

  /** Marks a still-pending request as closed by the mock. */
  close(id: string): void {
    const entry = this.byId.get(id)
    if (entry === undefined || entry.outcome !== "pending") return
    entry.outcome = "closed"
    entry.completedAt = this.clock()
    this.notify()
  }

  /** Whether a request is still pending. */
  isPending(id: string): boolean {
    return this.byId.get(id)?.outcome === "pending"
  }

  /** A snapshot of every record, oldest first. */
  all(): ReadonlyArray<RequestRecord> {
    return this.entries.map(snapshot)
  }

  /** A snapshot of one record. */
  get(id: string): RequestRecord | undefined {
    const entry = this.byId.get(id)
    return entry === undefined ? undefined : snapshot(entry)
  }

  /** Forgets every record (ids keep counting up). */
  clear(): void {
    this.entries.length = 0
    this.byId.clear()
    this.notify()
  }

  /** Resolves with the first record snapshot for which `test` holds, checking now and after every change. */
  waitFor<A>(describe: string, test: () => A | undefined, options: WaitOptions = {}): Promise<A> {
    const timeoutMs = options.timeoutMs ?? 5000
    return new Promise<A>((resolve, reject) => {
      const check = (): boolean => {
        const found = test()
        if (found === undefined) return false
        this.listeners.delete(check)
        try {
          clearTimeout(timer)
        } catch {
          // workerd: a timer of another request context cannot be cleared; it fires later and does nothing
        }
        resolve(found)
        return true
      }
      const timer = setTimeout(() => {
        this.listeners.delete(check)
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${describe}.`))
      }, timeoutMs)
      if (!check()) this.listeners.add(check)
    })
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener()
  }
}

const snapshot = (entry: Entry): RequestRecord => ({
  ...entry,
  headers: { ...entry.headers },
  events: [...entry.events],
})
