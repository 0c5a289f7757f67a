import { WhisperMel } from '../../../common/audio/mel';
import { createSession, loadOrt } from '../../../common/backends/ort';
import { backendAttempts, type RuntimeBackend } from '../../../common/backends/plan';
import { probeWebGpu } from '../../../common/backends/webgpu';
import { isStoreFull } from '../../../common/weights';
import type { FileLoader, LoadOptions } from '../../../protocol/weights';
import type { Backend } from '../../../protocol/options';
import { readWhisperConfig, type Json } from './config';
import { WhisperDecoder } from './decoder';
import { findWhisperGraphs } from '../../../common/layouts/whisper';
import type { LoadedWhisper } from './transcribe';
import { WhisperTokenizer } from './tokenizer';

export interface WhisperLoadRequest {
  backend: Backend;
  /** A dtype fixed by the model source, for both graphs; otherwise the best the source has. */
  dtype?: string;
  /** WASM threads (see wasmThreads). */
  threads?: number;
}

export interface StartedWhisper extends LoadedWhisper {
  backend: RuntimeBackend;
  dtype: string;
}

const utf8 = new TextDecoder();
const json = async (loader: FileLoader, file: string, options: LoadOptions) =>
  JSON.parse(utf8.decode(await loader.load(file, options))) as Json;

/** Loads a Whisper export in the onnx-community layout and starts it on the first backend that works. */
export async function loadWhisper(
  loader: FileLoader,
  request: WhisperLoadRequest,
  options: LoadOptions = {},
): Promise<StartedWhisper> {
  const [config, tokenizerJson, tokenizerConfig, generation, preprocessor] = await Promise.all([
    json(loader, 'config.json', options),
    json(loader, 'tokenizer.json', options),
    json(loader, 'tokenizer_config.json', options),
    loader
      .has('generation_config.json', options)
      .then((has) => (has ? json(loader, 'generation_config.json', options) : undefined)),
    json(loader, 'preprocessor_config.json', options),
  ]);
  const tokenizer = new WhisperTokenizer(tokenizerJson, tokenizerConfig);
  const whisperConfig = readWhisperConfig(config, generation, (token) => tokenizer.id(token));
  const mel = new WhisperMel({
    featureSize: Number(preprocessor.feature_size ?? whisperConfig.melBins),
    nFft: Number(preprocessor.n_fft ?? 400),
    hopLength: Number(preprocessor.hop_length ?? 160),
    samplingRate: Number(preprocessor.sampling_rate ?? 16000),
    nSamples: Number(preprocessor.n_samples ?? 480000),
  });

  const attempts = backendAttempts(
    request.backend,
    request.backend === 'wasm' ? undefined : await probeWebGpu(),
    request.dtype,
  );
  const ort = await loadOrt(
    attempts.some((attempt) => attempt.backend === 'webgpu'),
    request.threads,
  );
  const failures: string[] = [];
  for (const attempt of attempts) {
    for (const dtype of attempt.dtypes) {
      try {
        const graphs = await findWhisperGraphs(loader, dtype, options);
        if (!graphs) continue;
        const [encoderGraph, decoderGraph] = await Promise.all([
          loader.load(graphs.encoder, options),
          loader.load(graphs.decoder, options),
        ]);
        const encoder = await createSession(ort, { backend: attempt.backend, graph: encoderGraph, externalData: [] });
        const decoder = await createSession(ort, { backend: attempt.backend, graph: decoderGraph, externalData: [] });
        return {
          decoder: new WhisperDecoder(ort, encoder, decoder, whisperConfig),
          tokenizer,
          mel,
          backend: attempt.backend,
          dtype,
        };
      } catch (error) {
        // No other backend or dtype would fit either.
        if (isStoreFull(error)) throw error;
        failures.push(`${attempt.backend}/${dtype}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    failures.push(
      `${attempt.backend}: no onnx/encoder_model{suffix}.onnx + onnx/decoder_model_merged{suffix}.onnx for ${attempt.dtypes.join(', ')}`,
    );
  }
  throw new Error(`Could not start the Whisper model (${failures.join('; ')}).`);
}
