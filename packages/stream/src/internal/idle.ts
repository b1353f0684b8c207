/**
 * The idle limit of a stream: a pull may wait at most `ms` for its batch. One timer serves every pull: a waiting pull
 * only records its deadline (a clock read), and the timer, when it fires, either ends the wait or re-arms itself for
 * the time left. So a busy stream costs no timer per pull, and an idle one times out within `ms`.
 */
import { clearTimer, now, setTimer } from "./byteStream.ts"

/** How long a pull may wait for its batch, and the failure when it waits longer. */
export interface IdleLimit<E> {
  readonly ms: number
  readonly onTimeout: () => E
}

export class IdleDeadline {
  private deadline = 0
  private expire: (() => void) | undefined = undefined
  private timer: unknown = undefined
  private readonly ms: number

  constructor(ms: number) {
    this.ms = ms
  }

  /** A pull starts waiting: `expire` is called if it still waits `ms` from now. */
  wait(expire: () => void): void {
    this.deadline = now() + this.ms
    this.expire = expire
    if (this.timer === undefined) this.timer = setTimer(this.check, this.ms)
  }

  /** The waiting pull got its batch (or went away). */
  done(): void {
    this.expire = undefined
  }

  /** Stops the timer for good. */
  close(): void {
    this.expire = undefined
    if (this.timer !== undefined) clearTimer(this.timer)
    this.timer = undefined
  }

  private readonly check = (): void => {
    this.timer = undefined
    const expire = this.expire
    if (expire === undefined) return
    const left = this.deadline - now()
    if (left > 0) {
      this.timer = setTimer(this.check, left)
      return
    }
    this.expire = undefined
    expire()
  }
}
