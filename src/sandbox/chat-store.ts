/**
 * Chatbot settings (what Edit stored), chat sessions and message IDs, in memory. A chatbot exists
 * as soon as a request names it: the spec shows no way to create one.
 */
export class ChatStore {
  #nextSessionId = 1;
  #nextMessageId = 1;
  readonly #settings = new Map<string, Record<string, unknown>>();
  readonly #sessions = new Map<number, string>();

  /** Merge the given fields into the chatbot's settings; omitted fields keep their value. */
  edit(serialNumber: string, fields: Record<string, unknown>): void {
    this.#settings.set(serialNumber, { ...this.#settings.get(serialNumber), ...fields });
  }

  /** A copy of what Edit stored, or undefined when the chatbot was never edited. */
  settings(serialNumber: string): Record<string, unknown> | undefined {
    const stored = this.#settings.get(serialNumber);
    return stored === undefined ? undefined : structuredClone(stored);
  }

  openSession(serialNumber: string): number {
    const id = this.#nextSessionId++;
    this.#sessions.set(id, serialNumber);
    return id;
  }

  /** The chatbot a session belongs to, or undefined for an unknown session. */
  chatbotOf(sessionId: number): string | undefined {
    return this.#sessions.get(sessionId);
  }

  nextMessageId(): number {
    return this.#nextMessageId++;
  }
}
