export interface Ranked {
  id: string;
  score: number;
}

/** Keeps the `k` highest scores seen (a min-heap), so ranking n items costs n log k. */
export class TopK {
  private readonly heap: Ranked[] = [];

  constructor(private readonly k: number) {}

  offer(id: string, score: number): void {
    const { heap } = this;
    if (this.k <= 0) return;
    if (heap.length < this.k) {
      heap.push({ id, score });
      this.up(heap.length - 1);
    } else if (score > heap[0]!.score) {
      heap[0] = { id, score };
      this.down(0);
    }
  }

  /** Best first; equal scores by id, so results are stable. */
  sorted(): Ranked[] {
    return [...this.heap].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private up(i: number): void {
    const { heap } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.score <= heap[i]!.score) return;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const { heap } = this;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && heap[left]!.score < heap[least]!.score) least = left;
      if (right < heap.length && heap[right]!.score < heap[least]!.score) least = right;
      if (least === i) return;
      [heap[least], heap[i]] = [heap[i]!, heap[least]!];
      i = least;
    }
  }
}
