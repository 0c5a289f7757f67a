/**
 * Recycled buffers for onnxruntime-web's large float32 outputs (the KV cache).
 *
 * onnxruntime-web 1.30 copies every CPU output out of its heap into a fresh `new Float32Array(size)`
 * and ignores pre-allocated CPU outputs. In Chromium the first write into a large fresh array (a
 * long KV cache) costs page faults every step, many times the same copy into arrays kept from
 * before (docs/performance.md, Chat). `installOutputPool` makes the calling worker's global
 * `Float32Array` a subclass that, for arrays of at least `minBytes` made by length, reuses a buffer
 * given back with `recycle` that fits them (zero-filled first, as a new array is), so the cache's arrays are touched
 * once and reused step after step. Only buffers the pool made are taken back. Smaller arrays, and
 * every other way of making one, are unchanged.
 */
export interface OutputPool {
  /** Gives back an array's buffer (an old cache tensor's data, no longer used). */
  recycle(array: Float32Array): void;
  /** Buffers waiting to be reused. */
  readonly size: number;
  /** Arrays made from a recycled buffer so far. */
  readonly reused: number;
  /** Puts the scope's own `Float32Array` back (tests). */
  uninstall(): void;
}

/** Room to grow in each new buffer (a decode step adds a position to every cache tensor): 1/8, at least 64 KiB. */
const capacity = (bytes: number) => bytes + Math.max(64 * 1024, Math.ceil(bytes / 8 / 4) * 4);

type Scope = { Float32Array: Float32ArrayConstructor; __vaaniOutputPool?: OutputPool };

/**
 * `minBytes` 64 KiB: one cache tensor of Qwen2.5-0.5B at 128 tokens (2 heads × 64 dims × 4 bytes a
 * position). A larger floor left mid-length caches to fresh arrays and slowed their decode
 * (docs/performance.md, Chat).
 */
export function installOutputPool(minBytes = 64 * 1024, maxBuffers = 128, scope = globalThis as Scope): OutputPool {
  if (scope.__vaaniOutputPool) return scope.__vaaniOutputPool;
  const Native = scope.Float32Array;
  const free: ArrayBuffer[] = [];
  /** Buffers this pool made: only those are taken back (another runtime's may be freed under it). */
  const own = new WeakSet<ArrayBuffer>();
  let reused = 0;
  const Pooled = class extends Native {
    constructor(...args: unknown[]) {
      const length = args[0];
      if (args.length === 1 && typeof length === 'number' && length * 4 >= minBytes) {
        // A buffer that holds the array and is at most 1/8 larger than a new one would be: a
        // cache tensor's buffer is not spent on a much smaller array (the logits).
        const at = free.findIndex(
          (buffer) => buffer.byteLength >= length * 4 && buffer.byteLength <= capacity(length * 4) * 1.125,
        );
        if (at >= 0) {
          super(free.splice(at, 1)[0]!, 0, length);
          this.fill(0);
          reused++;
        } else {
          const buffer = new ArrayBuffer(capacity(length * 4));
          own.add(buffer);
          super(buffer, 0, length);
        }
        return;
      }
      super(...(args as [ArrayBuffer]));
    }
  };
  scope.Float32Array = Pooled as unknown as Float32ArrayConstructor;
  const pool: OutputPool = {
    recycle(array) {
      const buffer = array.buffer;
      if (!(buffer instanceof ArrayBuffer) || !own.has(buffer) || free.includes(buffer)) return;
      // A sequence's cache only grows: buffers too small for this array (an earlier prompt chunk's)
      // would only hold memory.
      for (let i = free.length - 1; i >= 0; i--) if (free[i]!.byteLength < array.byteLength) free.splice(i, 1);
      free.push(buffer);
      if (free.length > maxBuffers) free.shift();
    },
    get size() {
      return free.length;
    },
    get reused() {
      return reused;
    },
    uninstall() {
      scope.Float32Array = Native;
      delete scope.__vaaniOutputPool;
    },
  };
  scope.__vaaniOutputPool = pool;
  return pool;
}

/** The pool installed in this worker, if any. */
export const outputPool = (scope = globalThis as Scope): OutputPool | undefined => scope.__vaaniOutputPool;
