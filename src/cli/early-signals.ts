/**
 * Ctrl-C (or SIGTERM) while the CLI is still starting: one line and exit 130, where Node would end
 * the process without a word (the first ~0.6 s of a run, while its modules load). The entry holds
 * the signals first thing (`holdEarlySignals`); once a command's action has begun
 * (`commandStarted`, commander's `preAction`), a signal is the command's own: its handler answers
 * (`sync` and `plan` let the calls in flight finish), and a command without one (or before it has
 * installed it) ends with `interrupted` and exit 130. The handler stays installed throughout: the
 * event loop does not turn while the modules load, so a signal sent then is dispatched only once the
 * action has begun, and a handler removed by then would drop it (the process would go on).
 */

/** Exit code of an interrupted command (README "Exit codes"; `EXIT.interrupted`, not loaded yet here). */
const INTERRUPTED = 130;

let started = false;

/**
 * A line said on a signal, on a line of its own: after the `^C` a terminal echoes, a new line
 * first; in a log or a pipe, nothing before it (an empty line there reads as something lost).
 */
export function signalLine(text: string): string {
  return `${process.stderr.isTTY ? '\n' : ''}${text}\n`;
}

function onEarlySignal(signal: NodeJS.Signals): void {
  if (!started) {
    process.stderr.write(
      signalLine(`feed-sync: stopped (${signal}) while starting: nothing was read or written`),
    );
    process.exit(INTERRUPTED);
  }
  // The command's own handler answers it.
  if (process.listenerCount(signal) > 1) return;
  // None (a command that has none, or one that has not installed it yet): it ends here, saying so.
  process.stderr.write(signalLine(`feed-sync: interrupted (${signal})`));
  process.exit(INTERRUPTED);
}

/** Held by the entry before the program loads. */
export function holdEarlySignals(): void {
  started = false;
  process.on('SIGINT', onEarlySignal);
  process.on('SIGTERM', onEarlySignal);
}

/** A command's action has begun (commander's `preAction`): signals are the command's from here. */
export function commandStarted(): void {
  started = true;
}

/** Whether the early handler answers a signal as the start's (`holdEarlySignals`, not yet `commandStarted`). */
export function stillStarting(): boolean {
  return !started && process.listeners('SIGINT').includes(onEarlySignal);
}

/** The handler removed (a test that held the signals in its own process). */
export function letGoOfSignals(): void {
  process.off('SIGINT', onEarlySignal);
  process.off('SIGTERM', onEarlySignal);
}
