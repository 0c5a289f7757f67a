import type { EngineSpec } from '../../protocol/speech';
import { EngineError } from '../../protocol/errors';
import type { Runtime } from './job';
import { pcm16Audio } from '../../common/audio/pcm16';
import { speakKokoro } from './kokoro';
import { speakVits } from './vits';
import { speakPiper } from './piper';
import { speakSherpaVits } from './sherpa-vits';

const speakEspeak: Runtime = async (job, context) => {
  if (job.voice.spec.engine !== 'espeak')
    throw new EngineError('internal', `Voice '${job.voice.id}' is not an eSpeak voice.`, 'internal_error');
  const espeak = await context.espeak();
  const pcm16 = await espeak.speak(job.voice.spec.espeakVoice, job.text, job, context.signal);
  return pcm16Audio(pcm16, espeak.sampleRate);
};

/** The runtime that speaks each kind of catalogue voice. */
export const RUNTIMES: Record<EngineSpec['engine'], Runtime> = {
  espeak: speakEspeak,
  kokoro: speakKokoro,
  vits: speakVits,
  piper: speakPiper,
  'sherpa-vits': speakSherpaVits,
};
