/**
 * Enforcing one attempt's deadline WITHOUT handing undici an abort signal.
 *
 * Why: any `signal` passed to `undici.request` makes it register an abort listener per request
 * and a 'close' listener on the body to remove it again, the largest single cost the client
 * adds to a request. The deadline is enforced instead by:
 * - headers phase: our timer settles the attempt as a timeout at the deadline; the request left
 *   behind is ended by undici's own `headersTimeout` (set to the same budget, its coarse timers
 *   are cheap) and, should its headers still arrive, its body is dumped so the socket returns
 *   to the pool. Queue time waiting for a pooled connection counts against the attempt because
 *   our timer starts before dispatch; undici's headersTimeout starts only once the request is
 *   written, which is why it alone would not do.
 * - body phase: the same timer destroys the response body, so a trickling body that keeps
 *   undici's idle `bodyTimeout` happy still ends at the attempt deadline.
 */
import { type Dispatcher, request } from 'undici';

/** The reason a body is destroyed with when the deadline passes; recognised by identity. */
export class AttemptDeadlineExceeded extends Error {
  constructor(readonly timeoutMs: number) {
    super(`attempt deadline of ${timeoutMs} ms passed`);
  }
}

type Body = Dispatcher.ResponseData['body'];

/**
 * One timer shared by the attempts of a client. A `setTimeout` + `clearTimeout` per attempt
 * is costly mostly because Node builds and drops its timer list for the duration each time.
 * Here an attempt only goes
 * into a list; the one timer is armed for the earliest deadline and re-armed only when a new
 * attempt's deadline is earlier (with equal timeouts: almost never), or when it fires.
 * Deadlines stay exact (no sweep interval). The timer is unref'd: an attempt in flight keeps
 * the process alive through its socket, and an idle client must not hold it open; so it needs
 * no close (closing it under a stalled attempt would leave that attempt without a deadline).
 */
export interface DeadlineTimer {
  watch(deadline: AttemptDeadline): void;
  unwatch(deadline: AttemptDeadline): void;
}

/** Node may fire a timer up to a millisecond early against `performance.now()`. */
const TIMER_SLACK_MS = 1;
const now = (): number => performance.now();

export function createDeadlineTimer(): DeadlineTimer {
  // The attempts in flight as an intrusive doubly linked list: add and remove are a few field
  // writes, cheaper than a Set's hashing.
  let head: AttemptDeadline | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armedFor = Number.POSITIVE_INFINITY;
  const arm = (at: number): void => {
    if (timer !== undefined) clearTimeout(timer);
    armedFor = at;
    timer = setTimeout(fire, Math.max(0, at - now()));
    timer.unref();
  };
  const unlink = (deadline: AttemptDeadline): void => {
    const { prev, next } = deadline;
    if (prev) prev.next = next;
    else if (head === deadline) head = next;
    else return;
    if (next) next.prev = prev;
    deadline.prev = undefined;
    deadline.next = undefined;
  };
  const fire = (): void => {
    timer = undefined;
    armedFor = Number.POSITIVE_INFINITY;
    const due = now() + TIMER_SLACK_MS;
    let earliest = Number.POSITIVE_INFINITY;
    for (let deadline = head; deadline; ) {
      const following = deadline.next;
      if (deadline.at <= due) {
        unlink(deadline);
        deadline.expire();
      } else if (deadline.at < earliest) earliest = deadline.at;
      deadline = following;
    }
    if (earliest !== Number.POSITIVE_INFINITY) arm(earliest);
  };
  return {
    watch(deadline) {
      deadline.next = head;
      if (head) head.prev = deadline;
      head = deadline;
      if (deadline.at < armedFor) arm(deadline.at);
    },
    unwatch: unlink,
  };
}

/** One attempt's deadline: armed at creation, cleared by `settle()`. */
export class AttemptDeadline {
  timedOut = false;
  /** Links in the shared timer's list of attempts in flight. */
  prev: AttemptDeadline | undefined;
  next: AttemptDeadline | undefined;
  /** `performance.now()` milliseconds at which the attempt ends. */
  readonly at: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #shared: DeadlineTimer | undefined;
  #body: Body | undefined;
  #onHeadersTimeout: ((error: AttemptDeadlineExceeded) => void) | undefined;

  /** Without a shared timer (a lone `sendAttempt`), the attempt arms its own. */
  constructor(
    readonly timeoutMs: number,
    shared: DeadlineTimer | undefined,
    startedAt: number = now(),
  ) {
    this.at = startedAt + timeoutMs;
    if (shared) {
      this.#shared = shared;
      shared.watch(this);
    } else this.#timer = setTimeout(expire, timeoutMs, this);
  }

  /** The headers phase is waiting; `reject` ends it if the deadline passes first. */
  waitingForHeaders(reject: (error: AttemptDeadlineExceeded) => void): void {
    this.#onHeadersTimeout = reject;
  }

  /** The body phase started: the deadline now destroys this body. */
  readingBody(body: Body): void {
    this.#onHeadersTimeout = undefined;
    this.#body = body;
  }

  expire(): void {
    this.#timer = undefined;
    this.#shared = undefined;
    this.timedOut = true;
    const error = new AttemptDeadlineExceeded(this.timeoutMs);
    if (this.#body) this.#body.destroy(error);
    else this.#onHeadersTimeout?.(error);
    this.#onHeadersTimeout = undefined;
  }

  settle(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#shared?.unwatch(this);
    this.#timer = undefined;
    this.#shared = undefined;
    this.#onHeadersTimeout = undefined;
    this.#body = undefined;
  }
}

function expire(deadline: AttemptDeadline): void {
  deadline.expire();
}

type RequestCallback = (error: Error | null, data: Dispatcher.ResponseData) => void;
type RequestOptions = { dispatcher: Dispatcher } & Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;
/** `undici.request` accepts a callback at run time (its typings show only the promise form). */
const requestWithCallback = request as unknown as (url: string, options: RequestOptions, callback: RequestCallback) => void;

const ignore = (): void => undefined;

/**
 * `undici.request` in its callback form, raced against the deadline with one promise. A
 * response that arrives after the deadline settled the attempt is dumped (socket back to the
 * pool); an error after it is dropped. The body is handed to the deadline in the callback, so
 * no timer can fall between the headers and the body phase.
 */
export function requestWithin(url: string, options: RequestOptions, deadline: AttemptDeadline): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    deadline.waitingForHeaders(reject);
    requestWithCallback(url, options, (error, data) => {
      if (deadline.timedOut) {
        if (!error) data.body.dump().catch(ignore);
      } else if (error) reject(error);
      else {
        deadline.readingBody(data.body);
        resolve(data);
      }
    });
  });
}
