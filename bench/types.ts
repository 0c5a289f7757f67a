/** One row of bench/results/latest.json. ratio = value / baseline.value. */
export interface ScenarioResult {
  id: string;
  metric: string;
  unit: string;
  value: number;
  baseline: { name: string; value: number } | null;
  higherIsBetter: boolean;
  /** Extra figures worth keeping (peak memory, backend, sizes). */
  notes?: Record<string, unknown>;
}

/** What the runner hands every scenario module (runs in the bench page, in Chromium). */
export interface BenchEnv {
  /** A loopback server the runner started: /json (small JSON), /sse?n=N (N chat chunks). */
  remoteURL: string;
  /** The shared folder (audio, fixtures) as served to the page: '/shared/'. */
  sharedURL: string;
  /** Whether the page is cross-origin isolated (WASM threads possible). */
  isolated: boolean;
  /** What the runner passes a scenario it runs more than once (the fit scenario's device profile and link speed). */
  params: Record<string, unknown>;
  log(message: string): void;
}

/** A file in bench/scenarios/ default-exports one of these. */
export type Scenario = (env: BenchEnv) => Promise<ScenarioResult[]>;
