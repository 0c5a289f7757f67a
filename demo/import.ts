import type { Service } from './service';
import { byId, describeError, fillSelect, formatBytes, say } from './ui';
import type { ImportedFile } from './vaani';

/** Every file under a dropped folder, with its path inside that folder. */
async function droppedFiles(items: DataTransferItemList): Promise<ImportedFile[]> {
  const out: ImportedFile[] = [];
  const walk = async (entry: FileSystemEntry, path: string): Promise<void> => {
    if (entry.isFile)
      out.push({ path, file: await new Promise<File>((ok, fail) => (entry as FileSystemFileEntry).file(ok, fail)) });
    else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      // readEntries answers in batches until an empty one.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((ok, fail) => reader.readEntries(ok, fail));
        if (!batch.length) break;
        for (const child of batch) await walk(child, path ? `${path}/${child.name}` : child.name);
      }
    }
  };
  const roots = [...items].map((item) => item.webkitGetAsEntry()).filter((entry) => entry !== null);
  // A dropped folder's own name is not part of the paths; loose files keep their names.
  for (const root of roots) await walk(root, root.isDirectory ? '' : root.name);
  return out;
}

/**
 * The Models tab's import: a folder from the picker or a drop goes into the cache as the chosen
 * model. Answers the function that sets the models it offers.
 */
export function mountImport(service: Service, done: () => Promise<void>): (ids: string[]) => void {
  const zone = byId('models-import');
  const id = byId<HTMLSelectElement>('models-import-id');
  const picker = byId<HTMLInputElement>('models-import-folder');
  // A button opens the folder picker, so the keyboard reaches it (a hidden input in a label is skipped by Tab).
  byId('models-import-choose').addEventListener('click', () => picker.click());
  const bar = byId<HTMLProgressElement>('models-import-progress');
  const status = byId('models-status');

  async function run(files: Iterable<ImportedFile>) {
    const model = id.value;
    bar.hidden = false;
    bar.value = 0;
    say(status, `Importing ${model}…`, 'busy');
    let said: [string, 'ok' | 'error'];
    try {
      const cached = await service.ai.models.import(model, files, {
        onProgress: (progress) => (bar.value = progress.fraction ?? 0),
      });
      said = [`${model}: ${cached.files.length} files, ${formatBytes(cached.bytes)} imported; it loads offline.`, 'ok'];
    } catch (error) {
      said = [`${model}: ${describeError(error)}`, 'error'];
    }
    bar.hidden = true;
    // The table first (its refresh resets the status line), then what happened.
    await done();
    say(status, ...said);
  }

  picker.addEventListener('change', () => void run(picker.files ?? []).finally(() => (picker.value = '')));
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    if (event.dataTransfer) void droppedFiles(event.dataTransfer.items).then(run);
  });
  return (ids) =>
    fillSelect(
      id,
      ids.map((value) => ({ value, label: value })),
    );
}
