/** The distinct owner tags of a feed's remote listings, each by a number from 1 (0: untagged). */
export class OwnerNames {
  readonly #names: string[] = [];
  readonly #numbers = new Map<string, number>();

  numberOf(owner: string): number {
    let n = this.#numbers.get(owner);
    if (n === undefined) {
      n = this.#names.push(owner);
      this.#numbers.set(owner, n);
    }
    return n;
  }

  nameOf(n: number): string | undefined {
    return this.#names[n - 1];
  }
}
