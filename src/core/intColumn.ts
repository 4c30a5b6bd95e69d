/** A growable column of 32-bit integers (amortised doubling): compact where an array of numbers would box or over-allocate. */
export class IntColumn {
  private data: Int32Array;
  /** Values held; setting it lower drops the values past it. */
  length = 0;

  constructor(capacity = 64) {
    this.data = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }
}
