// How many commands the checks of tooling/consumer run at once, and a queue that keeps to it.
import { availableParallelism } from "node:os"

/**
 * The commands each check runs at once: as many as the machine has cores (at least 2), since the three checks of
 * `consumer:check` run side by side; `FRIENDLI_CHECK_JOBS` sets it.
 */
export const JOBS = Number(process.env.FRIENDLI_CHECK_JOBS) || Math.max(2, availableParallelism())

/**
 * A queue that runs the tasks given to it at most `n` at a time, in the order given; each call returns its task's
 * result.
 *
 * @param {number} n
 * @returns {<T>(task: () => Promise<T>) => Promise<T>}
 */
export const limit = (n) => {
  let active = 0
  /** @type {(() => void)[]} */
  const waiting = []
  const next = () => {
    if (active >= n) return
    const start = waiting.shift()
    if (start === undefined) return
    active++
    start()
  }
  return (task) =>
    new Promise((resolve, reject) => {
      waiting.push(() => {
        task()
          .then(resolve, reject)
          .finally(() => {
            active--
            next()
          })
      })
      next()
    })
}
