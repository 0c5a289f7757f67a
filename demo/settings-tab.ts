import type { Service } from './service';
import { DEFAULTS, loadSettings, saveSettings, type DemoSettings } from './settings';
import { byId, describeError, say } from './ui';

type Field = keyof DemoSettings;
const FIELDS = Object.keys(DEFAULTS) as Field[];
const input = (field: Field) => byId<HTMLInputElement | HTMLSelectElement>(`settings-${field}`);

/** The Settings tab: remote, key, routing, backend and where model files come from; saved in localStorage. */
export function mountSettings(service: Service): void {
  const form = byId<HTMLFormElement>('settings-form');
  const status = byId('settings-status');
  const show = (settings: DemoSettings) => FIELDS.forEach((field) => (input(field).value = settings[field]));
  show(loadSettings());

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const settings = Object.fromEntries(
      FIELDS.map((field) => [field, input(field).value.trim()]),
    ) as unknown as DemoSettings;
    saveSettings(settings);
    say(status, 'Saved. Restarting the service…', 'busy');
    try {
      await service.start(settings);
      say(status, `Saved and applied. ${service.source.reason}`, 'ok');
    } catch (error) {
      say(status, describeError(error), 'error');
    }
  });
  byId('settings-reset').addEventListener('click', () => show(DEFAULTS));
}
