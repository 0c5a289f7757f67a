/** The recorder's AudioWorklet messages, both ways. */

/** Messages from the page. */
export type RecorderCommand = { type: 'pause' } | { type: 'resume' } | { type: 'stop' };

/**
 * Messages to the page: mono samples in blocks, with their RMS and peak, and `time`, the audio
 * context's clock (seconds) at the block's first sample: the sample clock, not the block's arrival.
 */
export type RecorderMessage =
  { type: 'block'; samples: Float32Array; rms: number; peak: number; time: number } | { type: 'stopped' };
