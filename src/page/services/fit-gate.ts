import { GATED_BYTES, policyVerdict, type Verdict } from '../../common/fit/policy';
import { formatSize, formatTime } from '../../common/fit/decide';
import { EngineError, messageOf } from '../../protocol/errors';
import type { DownloadConsent, FitOptions, ModelPlan } from '../../protocol/fit';
import type { EngineKind } from '../../protocol/engines';
import { findVoice } from '../../catalogue/voices';
import { planName } from './plan';

/** A consent dialog (a widget's): resolves true to download. */
export type Confirmer = (plan: DownloadConsent) => boolean | Promise<boolean>;

export interface FitGateContext {
  fit: FitOptions;
  /** The id whose files `id` reads (one answer for ids that share files). */
  owner(id: string): string;
  /** Whether a remote is configured and routing lets it answer `id`. */
  remote(id: string): boolean;
  /** Plans `id`'s files, or one part of them (speech-stt-v1's 'indic-conformer'). */
  plan(id: string, part?: string): Promise<ModelPlan>;
  /** Asked with the first large download a plan lets start (`navigator.storage.persist()`, once per page). */
  persist?(): void;
  /** Told after the first call that read `id`'s files since it was settled (the plan notes what is cached). */
  note?(id: string, part?: string): Promise<void>;
}

/** A settled answer for one model's files: downloads may start, or the error every request gets. */
type Answer = { ok: true } | { ok: false; error: EngineError };

/**
 * Kinds whose engine gates each family's files itself, once it knows which it starts: speech
 * recognition reads Whisper's or IndicConformer's by language (src/page/engines/transcription.ts).
 */
const GATED_BY_ENGINE: readonly EngineKind[] = ['transcription'];

/**
 * The id whose files a call reads: the model's, for speech the voice's weights (none for eSpeak's
 * voices); undefined where nothing is read or the engine gates its files itself.
 */
export function filesRead(kind: EngineKind, modelId: string, args: unknown[]): string | undefined {
  if (GATED_BY_ENGINE.includes(kind)) return undefined;
  if (kind !== 'speech') return modelId;
  const voice = findVoice(String((args[0] as { voice?: unknown } | undefined)?.voice ?? ''));
  return voice && voice.spec.engine !== 'espeak' ? voice.spec.download.weights : undefined;
}

const declined = (message: string) => new EngineError('unavailable', message, 'download_declined', 'model');

/**
 * The one gate before any model byte is fetched: the engine registry runs it before each call that
 * reads a model's files (src/page/engines/_registry.ts). It plans the model, applies the policy,
 * asks `fit.confirm` (else the newest widget dialog) where consent is needed, and remembers the
 * answer per model files for the page until `reset`.
 */
export class FitGate {
  private readonly answers = new Map<string, Promise<Answer>>();
  private readonly confirmers: Confirmer[] = [];
  private readonly noted = new Set<string>();
  private readonly settling = new Set<string>();

  constructor(private readonly ctx: FitGateContext) {}

  /** The answers' key: the files' owner, and the part of them (speech-stt-v1's 'indic-conformer') where one is named. */
  private key(id: string, part?: string): string {
    const owner = this.ctx.owner(id);
    return part ? `${owner}#${part}` : owner;
  }

  /** The keys of every part of `id`'s files. */
  private keysOf(id: string): (key: string) => boolean {
    const owner = this.ctx.owner(id);
    return (key) => key === owner || key.startsWith(`${owner}#`);
  }

  /**
   * Resolves when `id`'s files (or one part of them) may be downloaded for a `kind` engine; throws a
   * `download_declined` EngineError otherwise.
   */
  async allow(kind: string, id: string, part?: string): Promise<void> {
    const key = this.key(id, part);
    let answer = this.answers.get(key);
    if (!answer) {
      this.settling.add(key);
      answer = this.settle(kind, id, key, part).finally(() => this.settling.delete(key));
      this.answers.set(key, answer);
    }
    const settled = await answer;
    if (!settled.ok) throw settled.error;
  }

  /** After a call that read `id`'s files answered: the first since it was settled has the plan note what is cached. */
  async done(kind: EngineKind, id: string, part?: string | null): Promise<void> {
    if (kind === 'speech' || (part === undefined && GATED_BY_ENGINE.includes(kind))) return;
    const key = this.key(id, part ?? undefined);
    if (this.noted.has(key)) return;
    this.noted.add(key);
    await this.ctx.note?.(id, part ?? undefined);
  }

  /** A plan found `id`'s cached files evicted: a settled answer is forgotten (one being settled already planned with it). */
  evicted(id: string): void {
    if (![...this.settling].some(this.keysOf(id))) this.reset(id);
  }

  /** Registers a consent dialog used where `fit.confirm` is not given (the newest first); returns its removal. */
  confirmer(confirm: Confirmer): () => void {
    this.confirmers.push(confirm);
    return () => {
      const at = this.confirmers.indexOf(confirm);
      if (at >= 0) this.confirmers.splice(at, 1);
    };
  }

  /** Forgets the answers (for one id's files, or all): the next request plans and asks again. */
  reset(id?: string): void {
    if (id === undefined) {
      this.answers.clear();
      this.noted.clear();
    } else {
      const ofId = this.keysOf(id);
      for (const key of [...this.answers.keys()]) if (ofId(key)) this.answers.delete(key);
      for (const key of [...this.noted]) if (ofId(key)) this.noted.delete(key);
    }
  }

  private async settle(kind: string, id: string, key: string, part?: string): Promise<Answer> {
    const forget = () => this.answers.delete(key);
    let plan: ModelPlan;
    let verdict: Verdict;
    const remote = this.ctx.remote(id);
    try {
      plan = await this.ctx.plan(id, part);
      verdict = policyVerdict(
        {
          model: planName(plan),
          decision: plan.decision,
          remaining: plan.download.remaining_bytes,
          memory: plan.memory.bytes,
          device: {
            memory: plan.device.memory_bytes ?? undefined,
            crossOriginIsolated: plan.device.cross_origin_isolated,
            online: plan.network.online,
            network: plan.unknown.includes('network')
              ? undefined
              : {
                  saveData: plan.network.save_data ?? undefined,
                  effectiveType: plan.network.effective_type ?? undefined,
                  downlink: plan.network.downlink_mbps ?? undefined,
                  type: plan.network.type ?? undefined,
                },
          },
          remote,
        },
        this.ctx.fit,
      );
    } catch (error) {
      // A plan that cannot be made does not block the engine (its own errors still say what failed).
      console.warn(`Vaani: could not plan ${id} before its download (${messageOf(error)}); it goes ahead.`);
      forget();
      return { ok: true };
    }
    // A large download asks the browser to keep the site's storage (once per page).
    const remaining = plan.download.remaining_bytes;
    const large = remaining === null || remaining > Math.min(this.ctx.fit.maxDownloadBytes ?? GATED_BYTES, GATED_BYTES);
    const start = (): Answer => {
      if (remaining !== 0 && large) this.ctx.persist?.();
      return { ok: true };
    };
    if (verdict.act === 'download') return start();
    if (verdict.act === 'refuse')
      return { ok: false, error: declined(`${verdict.reason} Its download is not started.`) };
    if (verdict.act === 'remote') return { ok: false, error: declined(verdict.reason) };

    const { remaining_bytes: bytes, seconds } = plan.download;
    const consent: DownloadConsent = {
      ...plan,
      consent: {
        for: kind,
        why: verdict.why,
        reason: verdict.reason,
        remote,
        size: bytes === null ? null : formatSize(bytes),
        time: seconds ? formatTime(seconds) : null,
      },
    };
    const confirm = this.ctx.fit.confirm ?? this.confirmers.at(-1);
    if (!confirm) {
      // Asked again next time: a dialog may be there by then.
      forget();
      return {
        ok: false,
        error: declined(
          `${verdict.reason} The download waits for consent: pass createVaani({ fit: { confirm } })` +
            `${verdict.why.includes('metered') ? ", or fit: { metered: 'local' }" : ''}.`,
        ),
      };
    }
    const yes = await Promise.resolve()
      .then(() => confirm(consent))
      .then((answer) => answer === true)
      .catch(() => false);
    if (yes) return start();
    return {
      ok: false,
      error: declined(
        `${verdict.reason} The download was declined; it is not asked again in this page until ai.plan.reset().`,
      ),
    };
  }
}
