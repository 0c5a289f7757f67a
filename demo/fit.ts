import type { Service } from './service';
import { describeError, el, formatBytes } from './ui';
import type { ModelPlan, PlanFor } from './vaani';

/**
 * The products `ai.plan` answers for (and speech, by its model id), in the panel's order, with their
 * labels and the model each plans (the catalogue's default: test/unit/demo/fit-products.test.ts).
 */
export const PRODUCTS: [product: string, label: string, model: string, options?: PlanFor][] = [
  ['chat', 'Chat', 'chat-v2'],
  ['voice', 'Transcription', 'speech-stt-v1'],
  // A Hindi transcription reads IndicConformer's files where the tier routes Hindi there.
  ['voice', 'Transcription (Hindi)', 'speech-stt-v1', { language: 'hi' }],
  ['speech-tts-v1', 'Speech', 'speech-tts-v1'],
  ['memory', 'Memory', 'embed-v1'],
  ['data', 'Data', 'embed-v1'],
  ['code', 'Code', 'code-v1'],
  ['agents', 'Agents', 'agent-v1'],
  ['image', 'Images', 'image-v1'],
];

const seconds = (s: number | null) =>
  s === null ? 'speed not reported' : s < 90 ? `~${s} s` : `~${Math.ceil(s / 60)} min`;

/** What this browser reports, in a line: memory, GPU, threads, storage, network, and what it does not say. */
function describeDevice({ device, network, unknown }: ModelPlan): string {
  const gpu =
    device.gpu === null
      ? 'no WebGPU API'
      : device.gpu.adapter
        ? `WebGPU${device.gpu.f16 ? ' (shader-f16)' : ''}`
        : 'no WebGPU adapter';
  const parts = [
    device.memory_bytes === null ? 'memory not reported' : `${device.memory_bytes / 2 ** 30} GB memory`,
    gpu,
    device.wasm_threads ? 'WASM threads' : 'WASM, one thread',
    device.storage?.quota
      ? `${formatBytes(device.storage.quota - (device.storage.usage ?? 0))} storage free`
      : 'storage not reported',
    network.downlink_mbps !== null
      ? `${network.downlink_mbps} Mbit/s${network.effective_type ? ` (${network.effective_type})` : ''}`
      : 'speed not reported',
    ...(network.save_data ? ['Save-Data on'] : []),
    ...(network.online ? [] : ['offline']),
  ];
  return `This browser: ${parts.join(' · ')}${unknown.length ? ` — not reported: ${unknown.join(', ')}` : ''}.`;
}

/**
 * The "Will it run here?" panel of the Models tab: `ai.plan` for every product's default model —
 * where it would run, its download and time on this connection, the memory it needs, and why.
 */
export function mountFit(service: Service): () => Promise<void> {
  const device = document.getElementById('fit-device')!;
  const body = document.getElementById('fit-body')!;
  return async () => {
    // A model whose files the folder lacks is not planned: that would ask the folder for a manifest it lacks.
    const plans = await Promise.all(
      PRODUCTS.map(async ([product, , model, options]) =>
        !(await service.hasFiles(model))
          ? { missing: true as const }
          : service.ai.plan(product, options).then(
              (plan) => ({ plan }),
              (error: unknown) => ({ error }),
            ),
      ),
    );
    const first = plans.find((p): p is { plan: ModelPlan } => 'plan' in p);
    device.textContent = first ? describeDevice(first.plan) : '';
    body.replaceChildren(
      ...plans.map((answer, i) => {
        const [name, label, , options] = PRODUCTS[i]!;
        const product = options?.language ? `${name}-${options.language}` : name;
        const cell = (text: string, className = '') => el('td', { textContent: text, className });
        if ('missing' in answer)
          return el(
            'tr',
            { dataset: { product } },
            cell(label),
            cell(PRODUCTS[i]![2]),
            cell('—'),
            cell('—'),
            cell('—'),
            cell('—'),
            cell('its files are not in this folder (see Cache)', 'reason'),
          );
        if ('error' in answer)
          return el(
            'tr',
            { dataset: { product } },
            cell(label),
            cell('—'),
            cell('—'),
            cell('—'),
            cell('—'),
            cell('—'),
            cell(describeError(answer.error), 'reason'),
          );
        const { decision, download, memory, model } = answer.plan;
        const verdict =
          decision.run === 'local'
            ? `yes · ${decision.backend}${decision.dtype ? ` ${decision.dtype}` : ''}`
            : decision.run === 'remote'
              ? 'remote'
              : 'no';
        const size =
          download.bytes === null
            ? download.basis === 'none'
              ? 'per voice'
              : 'unknown'
            : `${download.exact ? '' : '≈ '}${formatBytes(download.remaining_bytes ?? download.bytes)}${download.cached_bytes ? ` (${formatBytes(download.cached_bytes)} cached)` : ''}`;
        return el(
          'tr',
          { dataset: { product, run: decision.run } },
          cell(label),
          cell(model),
          cell(verdict, 'verdict'),
          cell(size),
          cell(download.remaining_bytes === 0 ? 'cached' : seconds(download.seconds)),
          cell(memory.bytes === null ? 'unknown' : `${formatBytes(memory.bytes)} (${memory.basis})`),
          cell(decision.reason, 'reason'),
        );
      }),
    );
  };
}
