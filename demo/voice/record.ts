import type { Service } from '../service';

export interface Recording {
  /** Which recorder is in use, shown on screen. */
  how: string;
  stop(): Promise<File>;
}

const MIC: MediaTrackConstraints = { echoCancellation: false, noiseSuppression: false, autoGainControl: false };

/** Records with the browser's MediaRecorder (webm/opus), reporting the input level (0–1) as it goes. */
async function mediaRecorder(onLevel: (level: number) => void): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: MIC });
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const meter = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    onLevel(Math.min(1, Math.sqrt(samples.reduce((sum, x) => sum + x * x, 0) / samples.length) * 4));
  }, 100);
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  recorder.start();
  return {
    how: `MediaRecorder, ${recorder.mimeType || 'browser default'}`,
    stop: () =>
      new Promise<File>((resolve, reject) => {
        recorder.onstop = () => {
          clearInterval(meter);
          stream.getTracks().forEach((track) => track.stop());
          void context.close();
          const type = recorder.mimeType || 'audio/webm';
          resolve(new File(chunks, `recording.${type.includes('ogg') ? 'ogg' : 'webm'}`, { type }));
        };
        recorder.onerror = () => reject(new Error('The recorder stopped with an error.'));
        recorder.stop();
      }),
  };
}

export async function startRecording(_service: Service, onLevel: (level: number) => void): Promise<Recording> {
  if (!navigator.mediaDevices?.getUserMedia) throw new Error('this page has no microphone access (it needs https or localhost).');
  return mediaRecorder(onLevel);
}
