import type { OrtSession } from '../../common/backends/ort';

/** The ONNX graphs of a diffusers export, each one session. */
export type Stage = 'text_encoder' | 'unet' | 'vae_decoder' | 'vae_encoder' | 'upscaler';

/**
 * How sessions live: `resident` keeps every stage's session for the pipeline's life (fastest);
 * `stagewise` creates each stage's session when a request reaches it and releases it when the
 * stage is done (for one request's UNet steps, once), so only one graph is in memory at a time —
 * for when memory is short. `auto` picks (see startDiffusion).
 */
export type SessionPolicy = 'resident' | 'stagewise';

/** What a request needs of a session besides running it: its names and declared inputs. */
export type StageMeta = Pick<OrtSession, 'inputNames' | 'outputNames' | 'inputMetadata'>;

/** Milliseconds per stage (summed over a request's runs), plus session creation under `sessions`. */
export type StageTimings = Partial<Record<Stage | 'sessions', number>>;

/** The sessions of one export under one policy. */
export class Stages {
  /** Sessions alive now, and the most alive at once so far (stagewise keeps this at 1). */
  live = 0;
  peakLive = 0;
  private readonly meta = new Map<Stage, StageMeta>();
  private readonly kept = new Map<Stage, OrtSession>();

  private constructor(
    private readonly create: (stage: Stage) => Promise<OrtSession>,
    readonly policy: SessionPolicy,
  ) {}

  /**
   * Creates each present stage's session once (reading its names and inputs, and checking the
   * graph loads); `resident` keeps them, `stagewise` releases each before making the next.
   */
  static async open(
    create: (stage: Stage) => Promise<OrtSession>,
    present: Stage[],
    policy: SessionPolicy,
  ): Promise<Stages> {
    const stages = new Stages(create, policy);
    for (const stage of present) {
      const session = await stages.session(stage);
      const { inputNames, outputNames, inputMetadata } = session;
      stages.meta.set(stage, { inputNames, outputNames, inputMetadata });
      if (policy === 'resident') stages.kept.set(stage, session);
      else await stages.release(session);
    }
    return stages;
  }

  has(stage: Stage): boolean {
    return this.meta.has(stage);
  }

  /** The stage's input and output names and declared inputs, without creating a session. */
  info(stage: Stage): StageMeta {
    const meta = this.meta.get(stage);
    if (!meta) throw new Error(`This export has no ${stage}/model.onnx.`);
    return meta;
  }

  /** Runs `work` with the stage's session: the kept one, or one created now and released after. */
  async use<T>(stage: Stage, work: (session: OrtSession) => Promise<T>, timings?: StageTimings): Promise<T> {
    this.info(stage);
    const kept = this.kept.get(stage);
    const start = performance.now();
    const session = kept ?? (await this.session(stage));
    const ready = performance.now();
    if (timings && !kept) timings.sessions = (timings.sessions ?? 0) + ready - start;
    try {
      return await work(session);
    } finally {
      if (timings) timings[stage] = (timings[stage] ?? 0) + performance.now() - ready;
      if (!kept) await this.release(session);
    }
  }

  /** Releases every kept session. */
  async dispose(): Promise<void> {
    for (const session of this.kept.values()) await this.release(session);
    this.kept.clear();
  }

  private async session(stage: Stage): Promise<OrtSession> {
    const session = await this.create(stage);
    this.live++;
    this.peakLive = Math.max(this.peakLive, this.live);
    return session;
  }

  private async release(session: OrtSession): Promise<void> {
    this.live--;
    await session.release();
  }
}
