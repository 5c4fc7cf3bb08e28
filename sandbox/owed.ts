/**
 * Which answers a connection still owes, so that the 400 for a request Node's parser rejected
 * goes on the wire after them, and never inside or instead of one. Requests can arrive
 * pipelined: a good request and a malformed one in the same packet. An answer that waits (for
 * its request's body, or for a latency fault) is still owed when the parser fails on the next
 * request; writing the 400 at once would leave the client reading it as that answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const ended = (res: ServerResponse): Promise<void> =>
  res.writableEnded
    ? Promise.resolve()
    : new Promise((resolve) => {
        res.once('finish', resolve);
        res.once('close', resolve);
      });

export function owedAnswers() {
  const open = new WeakMap<Duplex, Set<{ req: IncomingMessage; res: ServerResponse }>>();
  const answered = new WeakSet<Duplex>();
  return {
    /** Called for every request the server hands to its handler. */
    track(req: IncomingMessage, res: ServerResponse): void {
      let exchanges = open.get(req.socket);
      if (!exchanges) open.set(req.socket, (exchanges = new Set()));
      // Answers written in full are owed nothing: dropped here, not by a listener on every response.
      for (const exchange of exchanges) if (exchange.res.writableEnded) exchanges.delete(exchange);
      exchanges.add({ req, res });
    },
    /**
     * Runs `write` once every owed answer has been written (at once when none is owed). Not when
     * an answer is half-written (a fault that stalls a body: nothing can follow it coherently), nor
     * when the socket's error was already answered (the parser keeps failing on what follows).
     */
    afterOwed(socket: Duplex, write: () => void): 'scheduled' | 'mid-response' | 'answered' {
      if (answered.has(socket)) return 'answered';
      answered.add(socket);
      const exchanges = [...(open.get(socket) ?? [])];
      if (exchanges.some(({ res }) => res.headersSent && !res.writableEnded)) return 'mid-response';
      // A request whose body did not complete is the one that failed: its handler never answers.
      const owed = exchanges.filter(({ req, res }) => req.complete && !res.writableEnded);
      if (owed.length === 0) write();
      else void Promise.all(owed.map(({ res }) => ended(res))).then(write);
      return 'scheduled';
    },
  };
}
