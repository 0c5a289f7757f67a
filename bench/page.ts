import type { BenchEnv, Scenario, ScenarioResult } from './types';

const scenarios = import.meta.glob<{ default: Scenario }>('./scenarios/*.ts');

declare global {
  interface Window {
    runScenario(
      name: string,
      remoteURL: string,
      params?: Record<string, unknown>,
    ): Promise<{ rows: ScenarioResult[]; error?: string }>;
  }
}

window.runScenario = async (name, remoteURL, params) => {
  const env: BenchEnv = {
    remoteURL,
    params: params ?? {},
    sharedURL: '/shared/',
    isolated: crossOriginIsolated,
    log: (message) => console.log(`${name}: ${message}`),
  };
  try {
    const load = scenarios[`./scenarios/${name}.ts`];
    if (!load) throw new Error(`no scenario ${name}`);
    return { rows: await (await load()).default(env) };
  } catch (error) {
    return { rows: [], error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) };
  }
};
document.title = 'ready';
