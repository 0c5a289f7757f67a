/** New 16 kHz samples Silero VAD reads per step (its window is these plus 64 of context). */
export const VAD_FRAME = 512;
