/** Types for the untyped audio packages this folder uses (Emscripten modules and format sniffing). */

interface EmscriptenHeap {
  HEAPF32: Float32Array;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

declare module 'audio-type' {
  /** The container/codec name of encoded audio ('wav', 'mp3', 'flac', 'oga', 'opus', 'webm', ...). */
  export default function audioType(bytes: Uint8Array): string | undefined;
}

declare module '@echogarden/speex-resampler-wasm/simd' {
  export interface SpeexModule extends EmscriptenHeap {
    _speex_resampler_init(
      channels: number,
      inRate: number,
      outRate: number,
      quality: number,
      errorPointer: number,
    ): number;
    _speex_resampler_process_float(
      state: number,
      channel: number,
      input: number,
      inLength: number,
      output: number,
      outLength: number,
    ): number;
    _speex_resampler_get_input_latency(state: number): number;
    _speex_resampler_skip_zeros(state: number): number;
    _speex_resampler_destroy(state: number): void;
  }
  export default function SpeexResampler(options?: object): Promise<SpeexModule>;
}

declare module '@jitsi/rnnoise-wasm/dist/rnnoise-sync.js' {
  export interface RnnoiseModule extends EmscriptenHeap {
    ready: Promise<RnnoiseModule>;
    _rnnoise_create(model: number): number;
    _rnnoise_destroy(state: number): void;
    /** Denoises one 480-sample frame (int16-scaled floats); returns the voice probability. */
    _rnnoise_process_frame(state: number, output: number, input: number): number;
  }
  export default function createRnnoise(options?: object): RnnoiseModule;
}

declare module '@echogarden/sonic-wasm' {
  export interface SonicModule extends EmscriptenHeap {
    _sonicCreateStream(sampleRate: number, channels: number): number;
    _sonicDestroyStream(stream: number): void;
    _sonicSetSpeed(stream: number, speed: number): void;
    _sonicSetPitch(stream: number, pitch: number): void;
    _sonicSetRate(stream: number, rate: number): void;
    _sonicSetQuality(stream: number, quality: number): void;
    _sonicWriteFloatToStream(stream: number, samples: number, frames: number): number;
    _sonicFlushStream(stream: number): number;
    _sonicSamplesAvailable(stream: number): number;
    _sonicReadFloatFromStream(stream: number, samples: number, maxFrames: number): number;
  }
  export default function Sonic(options?: object): Promise<SonicModule>;
}
